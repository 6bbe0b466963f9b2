import { createHash } from 'node:crypto';
import type { Session } from '../model/types.ts';
import { countAtomUsage } from '../usage/count-usage.ts';
import { embedJson } from './embed-json.ts';
import { escapeHtml } from './escape-html.ts';
import { tokens, usd, utcTime } from './format-numbers.ts';
import { PAGE_SCRIPT } from './page-script.ts';
import { PAGE_STYLE } from './page-style.ts';
import type { Branch } from './read-branches.ts';
import { renderBranches } from './render-branches.ts';
import { renderChat } from './render-chat.ts';
import type { RenderContext } from './render-context.ts';
import { renderTimeline } from './render-timeline.ts';

const hash = (text: string): string => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/**
 * The Content-Security-Policy of a page: nothing by default; the page's own script and stylesheet by
 * their hashes; images only as `data:` URIs; no base, no forms; with `live`, requests to the
 * page's own origin (the events and the re-fetch of `romp serve`).
 * @param live whether the page is served live
 * @returns the policy
 */
export function pagePolicy(live: boolean): string {
  return [
    "default-src 'none'",
    `script-src ${hash(PAGE_SCRIPT)}`,
    `style-src ${hash(PAGE_STYLE)}`,
    'img-src data:',
    `connect-src ${live ? "'self'" : "'none'"}`,
    "base-uri 'none'",
    "form-action 'none'",
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
}

/**
 * A whole page: one self-contained HTML document (no request leaves it: the stylesheet and script are
 * inline, allowed by hash in a CSP `<meta>`; images are `data:` URIs), with the title bar (name, id,
 * project, times, turns, tokens, cost), the timeline strip, the full / context switch (a checkbox:
 * works without script), the script's controls (hidden until it runs), the chat, the rewound branches,
 * and the turn summaries' tool names as JSON for the filters.
 * @param session the session
 * @param ctx what the renderers read beside it
 * @param options branches, live, compacted
 * @returns the HTML document
 */
export function renderPage(session: Session, ctx: RenderContext, options: PageOptions = {}): string {
  const atoms = session.turns.flatMap((t) => t.atoms);
  const totals = countAtomUsage(atoms);
  const tools = new Set<string>();
  for (const atom of atoms) for (const b of atom.message?.content ?? []) if (b.type === 'tool_use') tools.add(String((b as { name?: unknown }).name));
  const title = session.name === '' ? `session ${session.rompUuid.slice(0, 8)}` : session.name;
  const first = session.turns[0]?.t ?? NaN;
  const last = session.turns.at(-1)?.end ?? NaN;
  const switcher = options.compacted === true ? '<label class="switch-label" for="view-context"><span class="ctx-off">view: full history</span><span class="ctx-on">view: context (what the model sees)</span></label>' : '';
  const total = totals.input_tokens + totals.output_tokens + totals.cache_creation_input_tokens + totals.cache_read_input_tokens;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(pagePolicy(options.live === true))}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · romp</title>
<style>${PAGE_STYLE}</style></head>
<body${options.live === true ? ' data-live' : ''}>
<input type="checkbox" id="view-context" class="visually-hidden">
<div class="top"><h1 id="title">${escapeHtml(title)}<span class="meta">${escapeHtml(session.rompUuid)} · ${escapeHtml(session.dir)} · ${utcTime(first)} → ${utcTime(last)} · ${session.turns.length} turns · ${tokens(total)} tokens · ${usd(totals.cost_usd)}</span></h1>
<div id="timeline-box">${renderTimeline(session)}</div>
<div class="bar">${switcher}<span id="controls" hidden><input type="search" id="q" placeholder="search (/)" aria-label="search"> <select id="f-author" aria-label="author"><option value="">all authors</option><option>human</option><option>sdk</option><option>peer</option><option>system</option><option>autonomous</option></select> <select id="f-tool" aria-label="tool"><option value="">all tools</option></select> <label><input type="checkbox" id="f-errors"> errors only</label> <span id="count"></span> <span class="keys">j/k turns · t thinking</span></span></div></div>
<main><div id="chat">
${renderChat(session, ctx)}
</div><div id="branches-box">${renderBranches(options.branches ?? [], options.omitted ?? 0)}</div></main>
<script type="application/json" id="romp-data">${embedJson({ rompUuid: session.rompUuid, tools: [...tools].sort() })}</script>
<script>${PAGE_SCRIPT}</script>
</body></html>
`;
}
