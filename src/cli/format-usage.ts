import Table from 'cli-table3';
import type { Totals } from '../usage/count-usage.ts';
import type { UsageReportKind, UsageRow } from '../usage/group-usage.ts';
import { formatCost } from './format-cost.ts';
import { formatCount } from '../text/format-count.ts';
import { safeText } from './safe-text.ts';
import { fitWidth, keepEnd, textWidth } from './fit-width.ts';
import { maxOf } from '../model/extremes.ts';

/** What a session row shows beside its numbers (from `romp ls`'s listing). */
export interface SessionLabel {
  title: string;
  last: number;
  /** The session's cwd (`""` when no prompt line has one). */
  cwd: string;
}

/** A report's row as the CLI prints it: `groupUsage`'s, and for the session and project reports the project's real
 * folder (`cwd`, as `romp ls` shows it; `""` when no line has one). */
export interface ReportRow extends UsageRow {
  cwd?: string;
}

/** Options of {@link formatUsageTable}. */
export interface UsageTableOptions {
  /** A row per model under each row. */
  breakdown?: boolean;
  /** The terminal's width in columns: the cache columns are left out when the table would not fit. */
  columns?: number;
  /** Titles of sessions by id, for the `session` report. */
  sessions?: ReadonlyMap<string, SessionLabel>;
  /** How a time is printed (the CLI's one convention). */
  time: (t: number) => string;
}

const count = formatCount;

/** A model id as the tables show it: without `claude-` and a date suffix (`claude-sonnet-4-5-20250929` → `sonnet-4-5`).
 * */
function shortModel(model: string): string {
  return model.replace(/^claude-/, '').replace(/-\d{8}$/, '');
}

const HEADS: Record<UsageReportKind, string[]> = {
  daily: ['Date'],
  weekly: ['Week'],
  monthly: ['Month'],
  session: ['Session', 'Project', 'Last activity'],
  project: ['Project'],
  blocks: ['Block start', 'End'],
};

/** Which number columns a table shows: all, then without the cache columns, then without the total too
 * (ccusage's compact layout), the first that fits the width. */
const LAYOUTS = [
  { cache: true, total: true },
  { cache: false, total: true },
  { cache: false, total: false },
] as const;

/** The fewest columns a text column is cut to: a session id's first 8, a project's last 12, a model's 10. */
const MIN_TEXT = 10;

/**
 * A usage report as an aligned table with a header row (cli-table3), thousands separators, one row per
 * day / week / month / session / project / 5-hour block, the models of each row, and a total row:
 * `Input | Output | Cache Create | Cache Read | Total Tokens | Cost (USD)`, as ccusage prints them.
 * An output count that is a lower bound (lines written before Claude Code 2.1.112) is marked `≥`. Every
 * text from a transcript (session titles, projects, model names) goes through `safeText`. A project is named by
 * its real folder (`cwd`), by its folder's name only when no line has a cwd, as `romp ls` names it.
 * On a width (`columns`) the table is made to fit it: the cache columns go, then the total (ccusage's
 * compact layout), then a cost's `(N unpriced)` goes under its sum, then a report with several label columns
 * (session, project, last activity; a block's start and end) stacks them in one, then the text (session, project,
 * models) is cut, a project keeping the end of its path; still too wide, the models are stacked under the labels
 * too, and on a terminal narrower still (40 columns) the numbers are stacked in one column, a line each under its
 * name. Numbers and times are never cut. Without a width the table is whole.
 * @param kind the report
 * @param rows its rows (`groupUsage`)
 * @param total the total over all rows
 * @param options breakdown, terminal width, session titles, time format
 * @returns the table, lines joined with `\n`, no final newline
 */
export function formatUsageTable(
  kind: UsageReportKind,
  rows: readonly ReportRow[],
  total: Totals,
  options: UsageTableOptions,
): string {
  const room = options.columns === undefined ? Infinity : options.columns - 1;
  const labels = HEADS[kind].length;
  let grid: Grid = [];
  for (const layout of LAYOUTS) {
    grid = gridOf(kind, rows, total, options, layout);
    if (tableWidth(grid) <= room) return render(grid, labels);
  }
  grid = stackCostNotes(grid);
  if (tableWidth(grid) <= room) return render(grid, labels);
  const cut = labels === 1 ? narrow(grid, room, CUT) : narrow(foldToFit(grid, labels, room), room, ['Models']);
  if (tableWidth(cut) <= room) return render(cut, 1);
  const folded = foldToFit(grid, labels + 1, room);
  return render(tableWidth(folded) <= room ? folded : foldToFit(stackNumbers(grid, labels + 1), labels + 1, room), 0);
}

/** The grid's number columns (from `first` on) stacked into one, a line each under its name (`Output  ≥ 1,811`): the
 * last layout, for a terminal too narrow for the numbers side by side (40 columns). */
function stackNumbers(grid: Grid, first: number): Grid {
  const [head = [], ...body] = grid;
  const names = head.slice(first).map((h) => h.replace(' (USD)', ''));
  const name = Math.max(...names.map((n) => n.length));
  // a number's width: a cell's first line (a cost's note under it, `(1 unpriced)`, only needs the whole line)
  const value = maxOf(body.flatMap((row) => row.slice(first).map((cell) => textWidth(cell.split('\n')[0] ?? ''))));
  const lines = (cell: string, i: number): string[] =>
    cell
      .split('\n')
      .map((line, j) =>
        j === 0 ? `${(names[i] as string).padEnd(name)} ${line.padStart(value)}` : line.padStart(name + 1 + value),
      );
  return [
    [...head.slice(0, first), 'Tokens and cost'],
    ...body.map((row) => [...row.slice(0, first), row.slice(first).flatMap(lines).join('\n')]),
  ];
}

/** The grid with a cost's note (`≥ $1.20 (3 unpriced)`) on a line of its own under the sum. */
function stackCostNotes(grid: Grid): Grid {
  return grid.map((row, r) =>
    r === 0 ? row : row.map((cell, i) => (i === row.length - 1 ? cell.replace(' (', '\n(') : cell)),
  );
}

/** The grid with its first `columns` columns stacked into one (`fold`), cut so that the table fits `room` if it can. */
function foldToFit(grid: Grid, columns: number, room: number): Grid {
  const folded = fold(grid, columns, Infinity);
  const over = tableWidth(folded) - room;
  return over > 0 ? fold(grid, columns, Math.max(MIN_TEXT, (columnWidths(folded)[0] as number) - over)) : folded;
}

/** The text columns `narrow` cuts, in this order. */
const CUT = ['Project', 'Session', 'Models'];

/** Label columns that hold a time: never cut. */
const TIMES = new Set(['Last activity', 'Block start', 'End']);

/** The grid with its label columns (a session's id and title, project and last activity; a block's start and
 * end) stacked into the first, a line each: the project cut to the width of the others (keeping its end), every
 * line but a time to `width`. */
function fold(grid: Grid, labels: number, width: number): Grid {
  const head = grid[0] as string[];
  return grid.map((row, r) => {
    const parts = row.slice(0, labels);
    if (r === 0) return [parts.join('\n'), ...row.slice(labels)];
    const others = parts.filter((_, i) => head[i] !== 'Project').flatMap((p) => p.split('\n'));
    const room = Math.min(width, maxOf(others.map(textWidth), MIN_TEXT));
    const stacked = parts
      .map((p, i) => (TIMES.has(head[i] as string) ? p : cutLines(p, room, head[i] === 'Project')))
      .filter((p) => p !== '')
      .join('\n');
    return [stacked, ...row.slice(labels)];
  });
}

/** A table's header and cells, each cell's lines joined with `\n`. */
type Grid = string[][];

function gridOf(
  kind: UsageReportKind,
  rows: readonly ReportRow[],
  total: Totals,
  options: UsageTableOptions,
  layout: (typeof LAYOUTS)[number],
): Grid {
  const labels = HEADS[kind].length;
  const head = [
    ...HEADS[kind],
    'Models',
    'Input',
    'Output',
    ...(layout.cache ? ['Cache Create', 'Cache Read'] : []),
    ...(layout.total ? ['Total Tokens'] : []),
    'Cost (USD)',
  ];
  const cells = (t: Totals): string[] => [
    count(t.input_tokens),
    `${t.lowerBound ? '≥ ' : ''}${count(t.output_tokens)}`,
    ...(layout.cache ? [count(t.cache_creation_input_tokens), count(t.cache_read_input_tokens)] : []),
    ...(layout.total
      ? [count(t.input_tokens + t.output_tokens + t.cache_creation_input_tokens + t.cache_read_input_tokens)]
      : []),
    formatCost(t),
  ];
  const grid: Grid = [head];
  for (const row of rows) {
    const models = row.models.map((m) => `- ${safeText(shortModel(m.model))}`).join('\n');
    grid.push([...label(kind, row, options), models, ...cells(row.totals)]);
    if (options.breakdown === true && row.models.length > 1) {
      for (const m of row.models)
        grid.push([
          ...Array.from({ length: labels }, (_, i) => (i === 0 ? `  └ ${safeText(shortModel(m.model))}` : '')),
          '',
          ...cells(m.totals),
        ]);
    }
  }
  grid.push(['Total', ...Array.from({ length: labels - 1 }, () => ''), '', ...cells(total)]);
  return grid;
}

/** The widest line of each column, in terminal columns. */
function columnWidths(grid: Grid): number[] {
  const widths = (grid[0] as string[]).map(() => 0);
  for (const row of grid)
    for (const [i, cell] of row.entries())
      for (const line of cell.split('\n')) widths[i] = Math.max(widths[i] as number, textWidth(line));
  return widths;
}

/** The width of the table cli-table3 draws: each column padded by one space a side, a border between and
 * around. */
function tableWidth(grid: Grid): number {
  const widths = columnWidths(grid);
  return widths.reduce((n, w) => n + w + 3, 1);
}

/** The grid with its text columns cut until the table fits `room`: the project first (it keeps the end of its path),
 * then the session (or the stacked labels), then the models, none under `MIN_TEXT`; the numbers never. */
function narrow(grid: Grid, room: number, names: readonly string[]): Grid {
  const head = grid[0] as string[];
  const cut = names.map((h) => head.indexOf(h)).filter((i) => i >= 0);
  const widths = columnWidths(grid);
  let excess = tableWidth(grid) - room;
  for (const i of cut) {
    const take = Math.max(0, Math.min(excess, (widths[i] as number) - MIN_TEXT));
    widths[i] = (widths[i] as number) - take;
    excess -= take;
  }
  const project = head.indexOf('Project');
  return grid.map((row, r) =>
    row.map((cell, i) => (r === 0 || !cut.includes(i) ? cell : cutLines(cell, widths[i] as number, i === project))),
  );
}

/** A cell's lines cut to `width`: a project's keeping their end (`keepEnd`), any other's their start. */
function cutLines(cell: string, width: number, project: boolean): string {
  return cell
    .split('\n')
    .map((line) => (project ? keepEnd(line, width) : fitWidth(line, width)))
    .join('\n');
}

function render(grid: Grid, labels: number): string {
  const [head = [], ...body] = grid;
  const table = new Table({
    head,
    style: { head: [], border: [] },
    colAligns: head.map((_, i) => (i < labels + 1 ? 'left' : 'right')),
  });
  for (const row of body) table.push(row);
  return table.toString();
}

function label(kind: UsageReportKind, row: ReportRow, options: UsageTableOptions): string[] {
  if (kind === 'session') {
    const known = options.sessions?.get(row.key);
    const title =
      known?.title === undefined || known.title === ''
        ? ''
        : `\n${fitWidth(safeText(known.title.replace(/\s+/g, ' ').slice(0, 160)), 40)}`;
    return [
      `${safeText(row.key.slice(0, 8))}${title}`,
      safeText(row.cwd || (row.project ?? '')),
      Number.isNaN(row.last) ? 'time unknown' : options.time(row.last),
    ];
  }
  if (kind === 'blocks')
    return row.end === undefined ? ['time unknown', ''] : [options.time(Date.parse(row.key)), options.time(row.end)];
  if (kind === 'project') return [safeText(row.cwd || row.key)];
  return [row.key === 'unknown' ? 'time unknown' : row.key];
}
