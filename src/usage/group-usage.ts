import { addResponse, emptyTotals, type Response, type Totals } from './count-usage.ts';
import { dayFormatter } from './day-formatter.ts';
import { pricer, type Price } from './prices.ts';

/** The reports of `romp usage`, as ccusage names them. */
export const USAGE_REPORTS = ['daily', 'weekly', 'monthly', 'session', 'project', 'blocks'] as const;
/** One of {@link USAGE_REPORTS}. */
export type UsageReportKind = (typeof USAGE_REPORTS)[number];

/** One row of a usage report: the responses of one day, week, month, session, project or block. */
export interface UsageRow {
  /** What the row is of: `2026-03-01` (daily), `2026-W09` (weekly, ISO), `2026-03` (monthly), a session id, a project
   * folder, a block's start (ISO). */
  key: string;
  totals: Totals;
  /** Each model's share, models sorted by name. */
  models: Array<{ model: string; totals: Totals }>;
  /** Time of the row's first and last response (epoch ms; `NaN` when none had a time). */
  first: number;
  last: number;
  /** `blocks`: the window's end (start + 5 h, epoch ms). */
  end?: number;
  /** `session`: the project folder of the session's first response. */
  project?: string;
  /** `session`: the transcript of the session's first response (whose `cwd` is the session's, `romp usage`). */
  file?: string;
}

/** Options of {@link groupUsage}. */
export interface GroupOptions {
  /** IANA zone for days, weeks and months (default: the machine's). */
  timeZone?: string;
  /** Price table (default `PRICES`). */
  prices?: Readonly<Record<string, Price>>;
  /** Only responses on or after this day, `YYYY-MM-DD`, in `timeZone`. */
  since?: string;
  /** Only responses on or before this day, `YYYY-MM-DD`, in `timeZone`. */
  until?: string;
  /** The project of a response's file (default: the name of the file's folder). */
  projectOf?: (file: string) => string;
}

/** A billing window of Claude plans: 5 hours from the first request, started on the hour. */
const BLOCK_MS = 5 * 3600_000;

/**
 * Regroups the responses `countUsage` counted (each API response once) into one report's rows:
 * - `daily`, `weekly` (ISO weeks, Monday first, `2026-W09`), `monthly`: by the response's time in
 *   `timeZone`; responses without a time go to a row `unknown`;
 * - `session`: by `sessionId`, with the project of its first response;
 * - `project`: by project folder (`projectOf`, default the file's folder name);
 * - `blocks`: 5-hour billing windows as ccusage draws them: a block starts at its first response's hour
 *   (UTC) and holds the responses of the next 5 h; the next response after that starts the next block.
 * Rows are in time order (`session`, `project`: by first response), each with a per-model split.
 * `since`/`until` keep the responses of those days (inclusive, in `timeZone`).
 *
 * Days come from `dayFormatter` (`Intl` asked per UTC day seen, not per response).
 *
 * @param responses `countUsage(...).responses`
 * @param kind which report
 * @param options zone, prices, day range, project of a file
 * @returns the rows
 */
export function groupUsage(
  responses: readonly Response[],
  kind: UsageReportKind,
  options: GroupOptions = {},
): UsageRow[] {
  const priceOf = pricer(options.prices);
  const dayOf = dayFormatter(options.timeZone);
  const projectOf = options.projectOf ?? folderOf;
  const rows = new Map<string, UsageRow & { byModel: Map<string, Totals> }>();
  let block: { start: number; end: number } | undefined;
  const sorted = [...responses].sort((a, b) => (Number.isNaN(a.t) ? 1 : Number.isNaN(b.t) ? -1 : a.t - b.t));
  for (const r of sorted) {
    const day = Number.isNaN(r.t) ? 'unknown' : dayOf(r.t);
    if ((options.since !== undefined || options.until !== undefined) && day === 'unknown') continue;
    if (options.since !== undefined && day < options.since) continue;
    if (options.until !== undefined && day > options.until) continue;
    let key: string;
    if (kind === 'daily') key = day;
    else if (kind === 'monthly') key = day === 'unknown' ? day : day.slice(0, 7);
    else if (kind === 'weekly') key = day === 'unknown' ? day : isoWeek(day);
    else if (kind === 'session') key = r.sessionId;
    else if (kind === 'project') key = projectOf(r.file);
    else if (Number.isNaN(r.t)) key = 'unknown';
    else {
      if (block === undefined || r.t >= block.end) {
        const start = Math.floor(r.t / 3600_000) * 3600_000;
        block = { start, end: start + BLOCK_MS };
      }
      key = new Date(block.start).toISOString();
    }
    let row = rows.get(key);
    if (row === undefined) {
      row = { key, totals: emptyTotals(), models: [], first: r.t, last: r.t, byModel: new Map() };
      if (kind === 'blocks' && block !== undefined && key !== 'unknown') row.end = block.end;
      if (kind === 'session') Object.assign(row, { project: projectOf(r.file), file: r.file });
      rows.set(key, row);
    }
    const price = priceOf(r.model);
    addResponse(row.totals, r, price);
    let model = row.byModel.get(r.model);
    if (model === undefined) row.byModel.set(r.model, (model = emptyTotals()));
    addResponse(model, r, price);
    if (!Number.isNaN(r.t)) {
      if (Number.isNaN(row.first) || r.t < row.first) row.first = r.t;
      if (Number.isNaN(row.last) || r.t > row.last) row.last = r.t;
    }
  }
  const out = [...rows.values()].map(({ byModel, ...row }) => ({
    ...row,
    models: [...byModel].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([model, totals]) => ({ model, totals })),
  }));
  if (kind === 'daily' || kind === 'weekly' || kind === 'monthly')
    return out.sort((a, b) => (a.key === 'unknown' ? 1 : b.key === 'unknown' ? -1 : a.key < b.key ? -1 : 1));
  return out;
}

/** The ISO week (`2026-W09`) of a calendar day `YYYY-MM-DD`: weeks start on Monday; week 1 holds the year's first
 * Thursday. */
export function isoWeek(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  const weekday = (date.getUTCDay() + 6) % 7; // Monday 0 … Sunday 6
  const thursday = new Date(date.getTime() + (3 - weekday) * 86_400_000);
  const year = thursday.getUTCFullYear();
  const week = 1 + Math.floor((thursday.getTime() - Date.UTC(year, 0, 1)) / (7 * 86_400_000));
  return `${year}-W${String(week).padStart(2, '0')}`;
}

/** The project folder of a transcript: its folder, or for a subagent's (`<project>/<id>/subagents/…`) the one above the
 * session's. */
function folderOf(file: string): string {
  const parts = file.split(/[\\/]/);
  const subagents = parts.lastIndexOf('subagents');
  return (subagents >= 2 ? parts[subagents - 2] : parts.at(-2)) ?? '';
}
