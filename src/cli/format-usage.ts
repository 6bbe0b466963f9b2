import Table from 'cli-table3';
import type { Totals } from '../usage/count-usage.ts';
import type { UsageReportKind, UsageRow } from '../usage/group-usage.ts';
import { formatCost } from './format-cost.ts';
import { formatCount } from '../text/format-count.ts';
import { safeText } from './safe-text.ts';

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

/**
 * A usage report as an aligned table with a header row (cli-table3), thousands separators, one row per
 * day / week / month / session / project / 5-hour block, the models of each row, and a total row:
 * `Input | Output | Cache Create | Cache Read | Total Tokens | Cost (USD)`, as ccusage prints them.
 * An output count that is a lower bound (lines written before Claude Code 2.1.112) is marked `≥`. Every
 * text from a transcript (session titles, projects, model names) goes through `safeText`. A project is named by
 * its real folder (`cwd`), by its folder's name only when no line has a cwd, as `romp ls` names it.
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
  const build = (withCache: boolean): string => {
    const numbers = [
      'Input',
      'Output',
      ...(withCache ? ['Cache Create', 'Cache Read'] : []),
      'Total Tokens',
      'Cost (USD)',
    ];
    const head = [...HEADS[kind], 'Models', ...numbers];
    const labels = HEADS[kind].length;
    const table = new Table({
      head,
      style: { head: [], border: [] },
      colAligns: [...head.map((_, i) => (i < labels + 1 ? 'left' : 'right') as 'left' | 'right')],
    });
    const cells = (t: Totals): string[] => [
      count(t.input_tokens),
      `${t.lowerBound ? '≥ ' : ''}${count(t.output_tokens)}`,
      ...(withCache ? [count(t.cache_creation_input_tokens), count(t.cache_read_input_tokens)] : []),
      count(t.input_tokens + t.output_tokens + t.cache_creation_input_tokens + t.cache_read_input_tokens),
      formatCost(t),
    ];
    for (const row of rows) {
      const models = row.models.map((m) => `- ${safeText(shortModel(m.model))}`).join('\n');
      table.push([...label(kind, row, options), models, ...cells(row.totals)]);
      if (options.breakdown === true && row.models.length > 1) {
        for (const m of row.models)
          table.push([
            ...Array.from({ length: labels }, (_, i) => (i === 0 ? `  └ ${safeText(shortModel(m.model))}` : '')),
            '',
            ...cells(m.totals),
          ]);
      }
    }
    table.push(['Total', ...Array.from({ length: labels - 1 }, () => ''), '', ...cells(total)]);
    return table.toString();
  };
  const full = build(true);
  const width = Math.max(...full.split('\n').map((l) => l.length));
  return options.columns !== undefined && width > options.columns ? build(false) : full;
}

function label(kind: UsageReportKind, row: ReportRow, options: UsageTableOptions): string[] {
  if (kind === 'session') {
    const known = options.sessions?.get(row.key);
    const title =
      known?.title === undefined || known.title === ''
        ? ''
        : `\n${safeText(known.title.replace(/\s+/g, ' ').slice(0, 40))}`;
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
