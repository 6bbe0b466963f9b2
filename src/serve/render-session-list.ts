import { escapeHtml } from '../html/escape-html.ts';
import type { TimeFormat } from '../cli/format-time.ts';
import { usd } from '../html/format-numbers.ts';
import { renderViewerPage } from './render-viewer-page.ts';

/** One row of `romp serve`'s session list. */
export interface SessionRow {
  id: string;
  /** The project's cwd, else its folder's name. */
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
 * The sessions as a table, in the order given, each row linking to `/s/<id>` by the session id (its first 8
 * characters shown), with project (its cwd, as `romp ls` shows it; the folder's name when no line has one),
 * title, last activity (in `time`'s zone), turns and cost. Each cell is classed by its column, so that on a
 * narrow screen the page's style stacks a row's cells instead of widening the table past the screen.
 * @param rows the sessions
 * @param time how times are printed (`timeFormat`)
 * @returns the `<table>`'s HTML
 */
export function sessionTable(rows: readonly SessionRow[], time: TimeFormat): string {
  const body = rows
    .map(
      (r) =>
        `<tr><td class="id"><a href="/s/${encodeURIComponent(r.id)}"><code>${escapeHtml(r.id.slice(0, 8))}</code></a></td><td class="project">${escapeHtml(r.project)}</td><td class="title">${escapeHtml(r.title.replace(/\s+/g, ' ').slice(0, 120))}</td><td class="last">${time.format(r.last)}</td><td class="num turns">${r.turns}</td><td class="num">${usd(r.cost_usd)}</td></tr>`,
    )
    .join('\n');
  return `<table class="sessions"><thead><tr><th>id</th><th>project</th><th>title</th><th>last activity</th><th>turns</th><th>cost</th></tr></thead><tbody>
${body}
</tbody></table>`;
}

/**
 * The session list of `romp serve` (`/`): a search box (`/search`), then the sessions' table
 * (`sessionTable`), newest first as given, times in `time`'s zone, said in the heading. No script; the
 * page's CSP.
 * @param rows the sessions
 * @param time how times are printed (`timeFormat`)
 * @returns the HTML document
 */
export function renderSessionList(rows: readonly SessionRow[], time: TimeFormat): string {
  return renderViewerPage(
    'sessions',
    `Sessions<span class="meta">${rows.length} under the projects folder · times in ${escapeHtml(time.zone)}</span>`,
    '',
    sessionTable(rows, time),
  );
}
