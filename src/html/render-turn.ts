import { isKnownBlock } from '../model/is-known-block.ts';
import type { Atom, Turn } from '../model/types.ts';
import { typedText } from '../views/prompt-text.ts';
import { summarizeTurn } from '../views/summarize-turn.ts';
import { atomRuns, groupSummary, isToolOnly } from './atom-runs.ts';
import { authorName } from './author-name.ts';
import { escapeHtml } from './escape-html.ts';
import { duration, tokens, usd } from './format-numbers.ts';
import { renderBlock } from './render-block.ts';
import type { RenderContext } from './render-context.ts';
import type { ToolResult } from './tool-results.ts';
import { plural } from '../text/format-count.ts';

const PREVIEW = 100;

/**
 * One turn as an `<article class="turn">`: a header (number, author badge, time (`ctx.time`), `turnOutcome`,
 * duration, tokens, cost; the trigger's uuid as its anchor), what was typed (`promptText`), then the
 * other atoms in order, each anchored by its uuid. Runs of tool-only atoms with two or more calls are
 * grouped (`<details class="group">` "6 tool calls"); a tool_result atom whose every result is shown
 * with its call is not repeated; system-authored user atoms (compaction summaries, hook feedback,
 * caveats) are collapsed; a compaction is a divider; a rewound branch forking from an atom is a link
 * after it. The article carries `data-author`, `data-outcome`, `data-tools` and `data-error` for the
 * page's filters; atoms outside the `context` view are classed `pre-context`.
 * @param turn the turn
 * @param index its 1-based number
 * @param results the session's tool results by id
 * @param ctx patches, subagents, branches, context view
 * @returns the HTML
 */
export function renderTurn(
  turn: Turn,
  index: number,
  results: ReadonlyMap<string, ToolResult>,
  ctx: RenderContext,
): string {
  const summary = summarizeTurn(turn, index);
  const author = authorName(summary.author);
  const usage = summary.usage;
  const total =
    usage.input_tokens + usage.output_tokens + usage.cache_creation_input_tokens + usage.cache_read_input_tokens;
  const trigger = turn.trigger === null ? undefined : turn.atoms.find((a) => a.uuid === turn.trigger?.uuid);
  const hasError =
    summary.outcome === 'api_error' ||
    turn.atoms.some(
      (a) =>
        a.type === 'user' &&
        a.message.content.some((b) => isKnownBlock(b) && b.type === 'tool_result' && b.is_error === true),
    );
  const outside = ctx.context !== undefined && turn.atoms.every((a) => !ctx.context?.has(a.uuid));
  const before =
    trigger !== undefined && ctx.context !== undefined && !ctx.context.has(trigger.uuid) ? ' pre-context' : '';
  const head =
    `<header class="turn-head${before}"${trigger === undefined ? '' : ` id="${escapeHtml(trigger.uuid)}"`}>` +
    `<span class="n">#${index}</span><span class="badge author-${author.kind}">${escapeHtml(author.label)}</span>` +
    `<time>${ctx.time.format(turn.t)}</time><span class="outcome outcome-${summary.outcome}">${summary.outcome}</span>` +
    `<span>${duration(summary.duration_ms)}</span><span>${tokens(total)} tokens</span><span>${usd(summary.cost_usd)}</span></header>`;
  const prompt = summary.prompt === '' ? '' : `<div class="prompt${before}">${escapeHtml(summary.prompt)}</div>`;
  const images =
    trigger === undefined
      ? ''
      : (trigger.message?.content ?? [])
          .filter((b) => b.type === 'image')
          .map((b) => renderBlock(b, trigger, results, ctx))
          .join('');
  const body = renderAtoms(
    turn.atoms.filter((a) => a !== trigger),
    results,
    ctx,
  );
  return (
    `<article class="turn author-${author.kind}${outside ? ' pre-context' : ''}" data-author="${author.kind}" data-outcome="${summary.outcome}" data-tools="${escapeHtml(Object.keys(summary.tools).join(' '))}" data-error="${hasError ? 1 : 0}">` +
    `${head}${prompt}${images}${branchLinks(trigger?.uuid, ctx)}${body}</article>`
  );
}

function renderAtoms(atoms: readonly Atom[], results: ReadonlyMap<string, ToolResult>, ctx: RenderContext): string {
  return atomRuns(atoms, results)
    .map((run) => {
      const html = run.atoms.map((a) => renderAtom(a, results, ctx)).join('');
      if (!run.group) return html;
      const outside = run.atoms.every((a) => ctx.context !== undefined && !ctx.context.has(a.uuid))
        ? ' pre-context'
        : '';
      return `<details class="group${outside}"><summary>${escapeHtml(groupSummary(run.tools))}</summary>${html}</details>`;
    })
    .join('');
}

function renderAtom(atom: Atom, results: ReadonlyMap<string, ToolResult>, ctx: RenderContext): string {
  const id = escapeHtml(atom.uuid);
  const outside = ctx.context !== undefined && !ctx.context.has(atom.uuid) ? ' pre-context' : '';
  const links = branchLinks(atom.uuid, ctx);
  if (atom.type === 'user' && atom.author === undefined && isToolOnly(atom, results)) return links;
  const blocks = (): string => (atom.message?.content ?? []).map((b) => renderBlock(b, atom, results, ctx)).join('');
  if (atom.type === 'system' && atom.subtype === 'compact_boundary') {
    const meta = atom.compact_metadata;
    const what =
      meta === undefined
        ? ''
        : ` · ${escapeHtml(meta.trigger)} · ${tokens(meta.pre_tokens)} tokens before${meta.post_tokens === undefined ? '' : `, ${tokens(meta.post_tokens)} after`}`;
    return `<div class="compaction${outside}" id="${id}"><span>compacted${what} · <time>${ctx.time.format(atom.t)}</time></span></div>${links}`;
  }
  if (atom.type === 'idle')
    return `<div class="idle${outside}" id="${id}">idle · ${duration((atom.end ?? atom.t) - atom.t)}</div>${links}`;
  if (atom.type === 'result')
    return `<div class="atom a-result${outside}" id="${id}">result · ${escapeHtml(atom.result?.subtype ?? '')} · ${usd(atom.result?.total_cost_usd ?? 0)}</div>${links}`;
  if (atom.type === 'user' && atom.author === 'system') {
    const text = typedText(atom).replace(/\s+/g, ' ').trim();
    return `<details class="atom a-system${outside}" id="${id}"><summary><span class="badge author-system">system</span> ${escapeHtml(text.length > PREVIEW ? `${text.slice(0, PREVIEW - 1)}…` : text)}</summary>${blocks()}</details>${links}`;
  }
  if (atom.type === 'user') {
    const author = authorName(atom.author);
    return `<div class="atom a-user${outside}" id="${id}"><span class="badge author-${author.kind}">${escapeHtml(author.label)}</span>${blocks()}</div>${links}`;
  }
  return `<div class="atom a-${atom.type}${outside}" id="${id}">${blocks()}</div>${links}`;
}

function branchLinks(uuid: string | undefined, ctx: RenderContext): string {
  const branches = uuid === undefined ? undefined : ctx.branchesFrom.get(uuid);
  if (branches === undefined) return '';
  return branches
    .map((b) => {
      const first = b.lines[0];
      const text = (first === undefined ? '' : typedText(first)).replace(/\s+/g, ' ').trim();
      return `<p class="branch-link"><a href="#${escapeHtml(b.uuid)}">↳ rewound branch: ${escapeHtml(text.length > PREVIEW ? `${text.slice(0, PREVIEW - 1)}…` : text)} (${plural(b.lines.length, 'line')})</a></p>`;
    })
    .join('');
}
