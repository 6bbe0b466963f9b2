import { knownBlocks } from '../model/known-blocks.ts';
import type { Atom, Session, Turn } from '../model/types.ts';
import { toolResultText } from '../model/tool-result-text.ts';
import { typedText } from '../views/prompt-text.ts';
import { summarizeTurn } from '../views/summarize-turn.ts';
import { toolLabel } from '../views/tool-label.ts';
import { atomRuns, groupSummary, isToolOnly } from '../html/atom-runs.ts';
import { authorName } from '../html/author-name.ts';
import { TEXT_CAP } from '../html/cap-text.ts';
import { duration, tokens, usd } from '../html/format-numbers.ts';
import type { Branch } from '../html/read-branches.ts';
import type { RenderContext } from '../html/render-context.ts';
import { editHunks } from '../html/render-diff.ts';
import { toolResults, type ToolResult } from '../html/tool-results.ts';
import { totalsLabel } from '../html/totals-label.ts';
import { plural } from '../text/format-count.ts';
import MarkdownIt from 'markdown-it';

/** How {@link literal} puts text into Markdown. */
export type LiteralForm = 'fence' | 'inline' | 'paragraphs' | 'markdown';

/** Markdown read as GitHub reads it (raw HTML on): what `markdown` checks a text against. */
const GITHUB = new MarkdownIt({ html: true });
/** A fence's opening or closing line at column 0 (`markdown` leaves what is inside as it is). */
const FENCE = /^(`{3,}(?=[^`]*$)|~{3,})/;
/** A fence's closing line: up to three spaces, the run, nothing after it but spaces. */
const FENCE_CLOSE = /^ {0,3}(`{3,}|~{3,})\s*$/;

/** Characters that open inline Markdown (code, emphasis, links, raw HTML, entities, strikethrough, tables,
 * GitHub's math) wherever they stand. */
const INLINE = /[\\`*_[\]<>&~|$]/g;
/** What opens a block at the start of a line (after the inline escapes): a heading, quote, list item, setext
 * underline, thematic break or ordered list number. */
const LINE_START = /^(?:[#>+=-]|\d{1,9}(?=[.)]))/;

/**
 * Literal text into Markdown: the one place transcript text enters an export, so that nothing in it
 * becomes markup (a heading, a fence, raw HTML such as `</details>` or `<img>`, emphasis, a link). As
 * CommonMark and markdown-it with `html: true` (what GitHub allows) read it:
 * - `fence`: in a code fence longer than any run of backticks inside it (at least 3), with `language`
 *   after the opening one: text as typed (prompts, tool inputs and results), shown exactly;
 * - `inline`: the characters that open inline syntax (`` \ ` * _ [ ] < > & ~ | $ ``) backslash-escaped,
 *   line breaks as spaces: labels, titles, a heading's parts, inside `**…**` too;
 * - `paragraphs`: escaped as `inline`, and what would open a block at a line's start (`#`, `>`, `-`,
 *   `+`, `=`, `1.`) escaped too, leading spaces as no-break spaces (no indented code), each line break kept
 *   (a hard break), blank lines between paragraphs: prose such as thinking, readable inside `<details>`;
 * - `markdown`: Markdown by intent (assistant text): its headings, lists, emphasis, links and code kept, as
 *   written when markdown-it finds in it no raw HTML (tags, comments, autolinks) and no image; else every `<`
 *   and `![` outside a fence opened at column 0 backslash-escaped (a `<` inside a code span then shows its
 *   backslash), so nothing loads, hides or closes what follows. A fence left open is closed.
 * Linear in the text.
 * @param text the text
 * @param form how it goes in
 * @param language the fence's info string (`fence` only), e.g. `sh`
 * @returns the Markdown
 */
export function literal(text: string, form: LiteralForm, language = ''): string {
  if (form === 'fence') {
    let longest = 0;
    for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
    const ticks = '`'.repeat(Math.max(3, longest + 1));
    return `${ticks}${language}\n${text}\n${ticks}`;
  }
  if (form === 'inline') return text.replace(/\r?\n|\r/g, ' ').replace(INLINE, '\\$&');
  if (form === 'markdown') return markdown(text);
  const paragraphs: string[] = [];
  let lines: string[] = [];
  for (const line of [...text.split(/\r?\n|\r/), '']) {
    const body = line.trimStart();
    if (body !== '') {
      const indent = '&nbsp;'.repeat(line.length - body.length);
      lines.push(
        `${indent}${body.replace(INLINE, '\\$&').replace(LINE_START, (m) => (/\d/.test(m) ? `${m}\\` : `\\${m}`))}`,
      );
    } else if (lines.length > 0) {
      paragraphs.push(lines.join('\\\n'));
      lines = [];
    }
  }
  return paragraphs.join('\n\n');
}

function markdown(text: string): string {
  const lines = text.split(/\r\n?|\n/);
  const raw = GITHUB.parse(text, {})
    .flatMap((t) => [t, ...(t.children ?? [])])
    .some((t) => t.type === 'html_block' || t.type === 'html_inline' || t.type === 'image');
  let open = '';
  const out = lines.map((line) => {
    const fence = FENCE.exec(line)?.[1];
    if (open !== '') {
      const close = FENCE_CLOSE.exec(line)?.[1];
      if (close !== undefined && close[0] === open[0] && close.length >= open.length) open = '';
      return line;
    }
    if (fence !== undefined) {
      open = fence;
      return line;
    }
    // an escape pair stays one (`\<` is already text); a `<` or `![` alone is escaped
    return raw ? line.replace(/\\[\s\S]|<|!\[/g, (m) => (m[0] === '\\' ? m : `\\${m}`)) : line;
  });
  return [...out, ...(open === '' ? [] : [open])].join('\n');
}

function cut(text: string): string {
  return text.length <= TEXT_CAP
    ? text
    : `${text.slice(0, TEXT_CAP)}\n… truncated: showing ${TEXT_CAP.toLocaleString('en')} of ${text.length.toLocaleString('en')} characters`;
}

const quote = (text: string): string =>
  text
    .split('\n')
    .map((line) => (line === '' ? '>' : `> ${line}`))
    .join('\n');

/**
 * A session as Markdown for people and agents, with the choices of the HTML chat (`renderTurn`): a heading
 * per turn (number, author, time in `ctx.time`'s zone, said once in the head, outcome, duration, tokens,
 * cost) with what was typed as a quote; assistant text as Markdown, raw HTML neutralised (`literal` `markdown`);
 * thinking in a
 * collapsed `<details>`; each tool call as its `toolLabel` with its input (a `diff` fence for edits:
 * Claude Code's hunks, else jsdiff's) and its result in fences, runs of tool-only atoms under one "N tool
 * calls" line; subagents quoted under their call; system-authored atoms collapsed; compactions as a rule;
 * images as a placeholder; rewound branches noted after the line they fork from and listed at the end.
 * Inputs and results over 20,000 characters are cut with a note. Fences are longer than any backtick run
 * they hold.
 * @param session the session (in the view to export)
 * @param ctx patches, subagents, branches, time (`readPageContext`)
 * @param branches the rewound branches
 * @returns the Markdown
 */
export function renderMarkdownTranscript(
  session: Session,
  ctx: RenderContext,
  branches: readonly Branch[] = [],
): string {
  const title = session.name === '' ? `Session ${session.rompUuid.slice(0, 8)}` : session.name;
  const head = `# ${literal(title, 'inline')}\n\n${literal(session.rompUuid, 'inline')} · ${literal(session.dir, 'inline')} · ${ctx.time.format(session.turns[0]?.t ?? NaN)} → ${ctx.time.format(session.turns.at(-1)?.end ?? NaN)} (times in ${ctx.time.zone}) · ${plural(session.turns.length, 'turn')} · ${totalsLabel(session, ctx.withSubagents)}`;
  const rest = branches.map(
    (b) =>
      `### Rewound branch (${plural(b.lines.length, 'line')})\n\n${b.lines
        .map((l) =>
          l.type === 'user'
            ? quote(typedText(l) === '' ? '(tool results)' : literal(typedText(l), 'fence'))
            : knownBlocks(l.message.content)
                .map((c) =>
                  c.type === 'text'
                    ? literal(c.text, 'markdown')
                    : c.type === 'tool_use'
                      ? `- **${literal(toolLabel(c.name, c.input), 'inline')}**`
                      : '',
                )
                .filter((s) => s !== '')
                .join('\n\n'),
        )
        .join('\n\n')}`,
  );
  return `${[head, chat(session, ctx, 2), ...(rest.length === 0 ? [] : ['## Rewound branches', ...rest])].join('\n\n')}\n`;
}

function chat(session: Session, ctx: RenderContext, level: number): string {
  const results = toolResults(session);
  return session.turns.map((turn, i) => renderTurn(turn, i + 1, results, ctx, level)).join('\n\n');
}

function renderTurn(
  turn: Turn,
  index: number,
  results: ReadonlyMap<string, ToolResult>,
  ctx: RenderContext,
  level: number,
): string {
  const s = summarizeTurn(turn, index);
  const u = s.usage;
  const total = u.input_tokens + u.output_tokens + u.cache_creation_input_tokens + u.cache_read_input_tokens;
  const parts = [
    `${'#'.repeat(level)} Turn ${index} · ${literal(authorName(s.author).label, 'inline')} · ${ctx.time.format(turn.t)} · ${s.outcome} · ${duration(s.duration_ms)} · ${tokens(total)} tokens · ${usd(s.cost_usd)}`,
  ];
  if (s.prompt !== '') parts.push(quote(literal(s.prompt, 'fence')));
  const trigger = turn.atoms.find((a) => a.uuid === turn.trigger?.uuid);
  parts.push(...branchNotes(trigger?.uuid, ctx));
  for (const run of atomRuns(
    turn.atoms.filter((a) => a !== trigger),
    results,
  )) {
    const body = run.atoms.flatMap((a) => renderAtom(a, results, ctx, level));
    parts.push(...(run.group ? [`**${groupSummary(run.tools)}**`, ...body] : body));
  }
  return parts.filter((p) => p.trim() !== '').join('\n\n');
}

function renderAtom(atom: Atom, results: ReadonlyMap<string, ToolResult>, ctx: RenderContext, level: number): string[] {
  const notes = branchNotes(atom.uuid, ctx);
  if (atom.type === 'user' && isToolOnly(atom, results)) return notes;
  if (atom.type === 'system' && atom.subtype === 'compact_boundary') {
    const m = atom.compact_metadata;
    return [
      `---\n\n**compacted**${m === undefined ? '' : ` · ${m.trigger} · ${tokens(m.pre_tokens)} tokens before`} · ${ctx.time.format(atom.t)}\n\n---`,
      ...notes,
    ];
  }
  if (atom.type === 'idle') return [`*idle · ${duration((atom.end ?? atom.t) - atom.t)}*`, ...notes];
  if (atom.type === 'result')
    return [`*result · ${atom.result?.subtype ?? ''} · ${usd(atom.result?.total_cost_usd ?? 0)}*`, ...notes];
  if (atom.type === 'user' && atom.author === 'system')
    return [`<details><summary>system</summary>\n\n${literal(cut(typedText(atom)), 'fence')}\n\n</details>`, ...notes];
  if (atom.type === 'user')
    return [
      quote(`**${literal(authorName(atom.author).label, 'inline')}:**\n\n${literal(typedText(atom), 'fence')}`),
      ...notes,
    ];
  return [
    ...knownBlocks(atom.message?.content).flatMap((b): string[] => {
      if (b.type === 'text') return [literal(b.text, 'markdown')];
      if (b.type === 'thinking')
        return [
          b.thinking !== ''
            ? `<details><summary>thinking</summary>\n\n${literal(b.thinking, 'paragraphs')}\n\n</details>`
            : '*thinking: signature only*',
        ];
      if (b.type === 'redacted_thinking') return ['*thinking: redacted*'];
      if (b.type === 'image') return ['*[image]*'];
      if (b.type === 'tool_use') return renderCall(b, results, ctx, level);
      return [];
    }),
    ...notes,
  ];
}

function renderCall(
  use: { id?: unknown; name?: unknown; input?: unknown },
  results: ReadonlyMap<string, ToolResult>,
  ctx: RenderContext,
  level: number,
): string[] {
  const name = typeof use.name === 'string' ? use.name : '';
  const id = typeof use.id === 'string' ? use.id : '';
  const result = results.get(id);
  const hunks = ctx.patches.get(id) ?? editHunks(name, use.input);
  const command = (use.input as { command?: unknown } | null)?.command;
  const input =
    hunks !== undefined && hunks.length > 0
      ? literal(
          cut(
            hunks
              .map((h) =>
                [
                  `@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`,
                  ...h.lines.filter((l) => !l.startsWith('\\')),
                ].join('\n'),
              )
              .join('\n'),
          ),
          'fence',
          'diff',
        )
      : name === 'Bash' && typeof command === 'string'
        ? literal(cut(command), 'fence', 'sh')
        : literal(cut(JSON.stringify(use.input, null, 2) ?? ''), 'fence', 'json');
  const content = result?.block.content;
  const text = toolResultText(content);
  const state = result === undefined ? ' (no result)' : result.block.is_error === true ? ' (error)' : '';
  const sub = ctx.subagents.get(id);
  const subText =
    sub === undefined
      ? []
      : [
          quote(
            `**subagent** · ${literal(sub.models.join(', ') || 'model unknown', 'inline')} · ${plural(sub.session.turns.length, 'turn')} · ${usd(sub.cost_usd)}\n\n${chat(sub.session, { ...ctx, subagents: new Map(), branchesFrom: new Map() }, Math.min(6, level + 2))}`,
          ),
        ];
  return [
    `**${literal(toolLabel(name, use.input), 'inline')}**${state}`,
    input,
    ...(result === undefined ? [] : [literal(cut(text), 'fence')]),
    ...subText,
  ];
}

function branchNotes(uuid: string | undefined, ctx: RenderContext): string[] {
  return (uuid === undefined ? [] : (ctx.branchesFrom.get(uuid) ?? [])).map(
    (b) =>
      `*↳ rewound branch: ${literal((b.lines[0] === undefined ? '' : typedText(b.lines[0])).replace(/\s+/g, ' ').slice(0, 100), 'inline')} (${plural(b.lines.length, 'line')})*`,
  );
}
