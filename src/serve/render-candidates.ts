import { escapeHtml } from '../html/escape-html.ts';
import type { TimeFormat } from '../cli/format-time.ts';
import { renderViewerPage } from './render-viewer-page.ts';
import { sessionTable, type SessionRow } from './render-session-list.ts';

/**
 * The page of `romp serve` for `/s/<prefix>` when more than one session id starts with the prefix (served
 * as 404, like the CLI's error for an ambiguous prefix): what was asked, then the candidates' table
 * (`sessionTable`), each a link to its own page.
 * @param prefix the id prefix asked for
 * @param rows the sessions whose ids start with it
 * @param time how times are printed (`timeFormat`)
 * @returns the HTML document
 */
export function renderCandidates(prefix: string, rows: readonly SessionRow[], time: TimeFormat): string {
  return renderViewerPage(
    `${prefix}: ${rows.length} sessions`,
    `<code>${escapeHtml(prefix)}</code> matches ${rows.length} sessions<span class="meta">give more of the id · <a href="/">all sessions</a> · times in ${escapeHtml(time.zone)}</span>`,
    '',
    sessionTable(rows, time),
  );
}
