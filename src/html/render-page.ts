import type { Diagnostic } from '../diagnostics/diagnostic.ts';
import { knownBlocks } from '../model/known-blocks.ts';
import { createHash } from 'node:crypto';
import type { Session, Turn } from '../model/types.ts';
import { embedJson } from './embed-json.ts';
import { escapeHtml } from './escape-html.ts';
import { PAGE_SCRIPT } from './page-script.ts';
import { PAGE_STYLE } from './page-style.ts';
import type { Branch } from './read-branches.ts';
import { renderBranches } from './render-branches.ts';
import { renderUnlinked } from './render-unlinked.ts';
import { renderDiagnostics } from './render-diagnostics.ts';
import { linkParts } from './link-parts.ts';
import type { RenderContext } from './render-context.ts';
import { renderTimeline } from './render-timeline.ts';
import { renderTurn } from './render-turn.ts';
import { splitTurns, type PartRange } from './split-turns.ts';
import { toolResults } from './tool-results.ts';
import { totalsLabel } from './totals-label.ts';
import { plural } from '../text/format-count.ts';
import { maxOf } from '../model/extremes.ts';

const hash = (text: string): string => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/**
 * The Content-Security-Policy of a page: nothing by default; the page's own script and stylesheet by
 * their hashes; images only as `data:` URIs; no base, no forms; with `live`, requests to the
 * page's own origin (the events and the re-fetch of `romp serve`); with `forms`, forms that submit to
 * the page's own origin (the search box of `romp serve`).
 * @param live whether the page is served live
 * @param forms whether the page has a form to its own origin
 * @returns the policy
 */
export function pagePolicy(live: boolean, forms = false): string {
  return [
    "default-src 'none'",
    `script-src ${hash(PAGE_SCRIPT)}`,
    `style-src ${hash(PAGE_STYLE)}`,
    'img-src data:',
    `connect-src ${live ? "'self'" : "'none'"}`,
    "base-uri 'none'",
    `form-action ${forms ? "'self'" : "'none'"}`,
  ].join('; ');
}

/** What goes on a page beside the session. */
export interface PageOptions {
  /** Rewound branches (`readBranches`) and how many dead lines were not read. */
  branches?: readonly Branch[];
  omitted?: number;
  /** A page of `romp serve`: live updates through server-sent events. */
  live?: boolean;
  /** Whether the session has history before a compaction (shows the full / context switch). */
  compacted?: boolean;
  /** Split the page into parts of about this many characters of turns (`splitTurns`); default: one page. */
  partChars?: number;
  /** The address of part `n` (1-based) as a link from another part; required to split. */
  partHref?: ((n: number) => string) | undefined;
  /** The parse's diagnostics, listed under the title (`renderDiagnostics`). */
  diagnostics?: readonly Diagnostic[];
}

const hasCompaction = (turn: Turn): boolean =>
  turn.atoms.some((a) => a.type === 'system' && a.subtype === 'compact_boundary');

/**
 * The pages of a session: one self-contained HTML document (no request leaves it: the stylesheet and
 * script are inline, allowed by hash in a CSP `<meta>`; images are `data:` URIs), with the title bar
 * (name, id, project, times, turns, tokens and cost as `totalsLabel` says them; the parse's diagnostics
 * under it), the timeline strip, the full / context switch (a checkbox: works without script), the
 * script's controls (hidden until it runs), the chat, the rewound branches, the inline sidechains tied to no
 * call (`renderUnlinked`, in the last part), and the turns' tool names as
 * JSON for the filters. With `partChars` and `partHref`, a long session is split (`splitTurns`: whole
 * turns, at compactions where it can) into several such documents, each with the whole timeline and the
 * session's totals, its own turns, the branches that fork from them, and a navigation between parts saying
 * where it was split; a link to an atom of another part goes to that part (`linkParts`).
 * @param session the session
 * @param ctx what the renderers read beside it
 * @param options branches, live, compacted, partChars, partHref, diagnostics
 * @returns the documents (one without a split) and the turns each holds
 */
export function renderPages(
  session: Session,
  ctx: RenderContext,
  options: PageOptions = {},
): { pages: string[]; ranges: PartRange[] } {
  const results = toolResults(session);
  const turns = session.turns.map((turn, i) => renderTurn(turn, i + 1, results, ctx));
  const href = options.partHref;
  const ranges =
    href === undefined || options.partChars === undefined
      ? [[0, turns.length] as const]
      : splitTurns(
          turns.map((t) => t.length),
          session.turns.map(hasCompaction),
          options.partChars,
        );
  const branches = options.branches ?? [];
  const turnOf = new Map(session.turns.flatMap((t, i) => t.atoms.map((a) => [a.uuid, i] as const)));
  const homes = branches.map((branch) => {
    const turn = branch.from === null ? -1 : (turnOf.get(branch.from) ?? -1);
    return Math.max(
      0,
      ranges.findIndex(([from, to]) => turn >= from && turn < to),
    );
  });
  const lastWithBranches = maxOf(homes, 0);
  const shell = pageShell(session, ctx, options);
  const anchored: string[] = [];
  const pages = ranges.map(([from, to], part) => {
    const chat = turns.slice(from, to).join('\n');
    const mine = branches.filter((_, i) => homes[i] === part);
    const branchHtml =
      renderBranches(mine, part === lastWithBranches ? (options.omitted ?? 0) : 0) +
      (part === ranges.length - 1 ? renderUnlinked(session, ctx) : '');
    anchored.push(chat + branchHtml);
    const nav =
      ranges.length === 1 || href === undefined
        ? ''
        : partNav(
            ranges,
            part,
            href,
            turns.reduce((n, t) => n + t.length, 0),
            options.partChars ?? 0,
          );
    return shell(session.turns.slice(from, to), chat, branchHtml, nav);
  });
  return { pages: href === undefined ? pages : linkParts(pages, anchored, href), ranges };
}

function partNav(
  ranges: readonly PartRange[],
  part: number,
  href: (n: number) => string,
  chars: number,
  partChars: number,
): string {
  const link = (n: number, text: string, rel = ''): string => `<a href="${escapeHtml(href(n))}"${rel}>${text}</a>`;
  const [from, to] = ranges[part] as PartRange;
  const prev = part === 0 ? '' : ` · ${link(part, `← part ${part}`, ' rel="prev"')}`;
  const next = part === ranges.length - 1 ? '' : ` · ${link(part + 2, `part ${part + 2} →`, ' rel="next"')}`;
  const all = ranges
    .map(([f, t], i) => (i === part ? `<b>${i + 1}</b>` : link(i + 1, String(i + 1), ` title="turns ${f + 1}–${t}"`)))
    .join(' ');
  const why = `split: the session's turns come to ${mb(chars)} of page, over ${mb(partChars)}; each part is whole turns, cut at a compaction where one comes`;
  return `<nav class="parts" aria-label="parts"><b>part ${part + 1} of ${ranges.length}</b> · turns ${from + 1}–${to}${prev}${next} · parts: ${all} <span class="cut">${why}</span></nav>`;
}

const mb = (chars: number): string =>
  chars >= 100_000 ? `${(chars / 1_000_000).toFixed(1)} M characters` : `${chars} characters`;

function pageShell(
  session: Session,
  { time, withSubagents }: RenderContext,
  options: PageOptions,
): (turns: readonly Turn[], chat: string, branches: string, nav: string) => string {
  const title = session.name === '' ? `session ${session.rompUuid.slice(0, 8)}` : session.name;
  const first = session.turns[0]?.t ?? NaN;
  const last = session.turns.at(-1)?.end ?? NaN;
  const switcher =
    options.compacted === true
      ? '<label class="switch-label" for="view-context"><span class="ctx-off">view: full history</span><span class="ctx-on">view: context (what the model sees)</span></label>'
      : '';
  const timeline = renderTimeline(session, time);
  return (turns, chat, branches, nav) => {
    const tools = new Set<string>();
    for (const turn of turns)
      for (const atom of turn.atoms)
        for (const b of knownBlocks(atom.message?.content)) if (b.type === 'tool_use') tools.add(b.name);
    return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(pagePolicy(options.live === true))}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · romp</title>
<style>${PAGE_STYLE}</style></head>
<body${options.live === true ? ' data-live' : ''}>
<input type="checkbox" id="view-context" class="visually-hidden">
<div class="top"><h1 id="title">${escapeHtml(title)}<span class="meta">${escapeHtml(session.rompUuid)} · ${escapeHtml(session.dir)} · ${time.format(first)} → ${time.format(last)} (times in ${escapeHtml(time.zone)}) · ${plural(session.turns.length, 'turn')} · ${escapeHtml(totalsLabel(session, withSubagents))}</span></h1>${renderDiagnostics(options.diagnostics ?? [])}
<div id="timeline-box">${timeline}</div>
<div class="bar">${switcher}<span id="controls" hidden><input type="search" id="q" placeholder="search (/)" aria-label="search"> <select id="f-author" aria-label="author"><option value="">all authors</option><option>human</option><option>sdk</option><option>peer</option><option>system</option><option>autonomous</option></select> <select id="f-tool" aria-label="tool"><option value="">all tools</option></select> <label><input type="checkbox" id="f-errors"> errors only</label> <span id="count"></span> <span class="keys">j/k turns · t thinking</span></span></div>
<div id="parts-top">${nav}</div></div>
<main><div id="chat">
${chat}
</div><div id="branches-box">${branches}</div><div id="parts-bottom">${nav}</div></main>
<script type="application/json" id="romp-data">${embedJson({ rompUuid: session.rompUuid, tools: [...tools].sort() })}</script>
<script>${PAGE_SCRIPT}</script>
</body></html>
`;
  };
}
