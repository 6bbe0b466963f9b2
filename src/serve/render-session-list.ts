import { escapeHtml } from '../html/escape-html.ts';
import type { TimeFormat } from '../cli/format-time.ts';
import { usd } from '../html/format-numbers.ts';
import { renderViewerPage } from './render-viewer-page.ts';

/** One row of `romp serve`'s session list. */
export interface SessionRow {
  id: string;
  project: string;
  /** Title, else the first prompt. */
  title: string;
  /** Last activity (epoch ms; `NaN` unknown). */
  last: number;
  turns: number;
  /** USD at the built-in prices. */
  cost_usd: number;
}

/**
 * The session list of `romp serve` (`/`): a search box (`/search`), then a table, newest first as
 * given, each row linking to `/s/<id>` by the session id (its first 8 characters shown), with project,
 * title, last activity (in `time`'s zone, said in the heading), turns and cost. No script; the page's CSP.
 * @param rows the sessions
 * @param time how times are printed (`timeFormat`)
 * @returns the HTML document
 */
export function renderSessionList(rows: readonly SessionRow[], time: TimeFormat): string {
  const body = rows
    .map(
      (r) =>
        `<tr><td><a href="/s/${encodeURIComponent(r.id)}"><code>${escapeHtml(r.id.slice(0, 8))}</code></a></td><td>${escapeHtml(r.project)}</td><td>${escapeHtml(r.title.replace(/\s+/g, ' ').slice(0, 120))}</td><td>${time.format(r.last)}</td><td class="num">${r.turns}</td><td class="num">${usd(r.cost_usd)}</td></tr>`,
    )
    .join('\n');
  const table = `<table class="sessions"><thead><tr><th>id</th><th>project</th><th>title</th><th>last activity</th><th>turns</th><th>cost</th></tr></thead><tbody>
${body}
</tbody></table>`;
  return renderViewerPage(
    'sessions',
    `Sessions<span class="meta">${rows.length} under the projects folder · times in ${escapeHtml(time.zone)}</span>`,
    '',
    table,
  );
}
