import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, dirname, join, sep } from 'node:path';
import { existsSync } from 'node:fs';
import { countUsage, emptyTotals, type Totals, type UsageReport } from '../usage/count-usage.ts';
import { groupUsage, USAGE_REPORTS, type UsageReportKind } from '../usage/group-usage.ts';
import type { ReportRow, SessionLabel } from './format-usage.ts';
import { timeFormat } from './format-time.ts';
import { isoTime, withIsoTimes } from './iso-time.ts';
import { PRICES, type Price } from '../usage/prices.ts';
import { USAGE_BYTES_PER_THREAD, usageThreads } from '../usage/usage-threads.ts';
import type { Diagnostic } from '../diagnostics/diagnostic.ts';
import { writeDiagnostics } from './write-diagnostics.ts';
import { reportSkipped, reportUnreadable, UserError, type CliIO } from './cli-io.ts';
import { checkProjectsFolder } from './check-projects-folder.ts';
import { checkTranscripts } from './check-transcripts.ts';
import { dayOption } from './day-option.ts';
import { listClaudeSessions, type FileListing } from '../discover/list-claude-sessions.ts';
import { withSubagents } from '../discover/with-subagents.ts';
import { readIndex } from './read-index.ts';
import { discoverTranscripts } from '../discover/discover-transcripts.ts';
import { plural } from '../text/format-count.ts';
import { outputWidth, wrapLines } from './fit-width.ts';
import { resolveTargets, type TargetOptions } from './resolve-targets.ts';

/** Options of `romp usage`. */
export interface UsageCliOptions extends TargetOptions {
  timezone?: string;
  prices?: string;
  json?: boolean;
  /** Only responses on or after this day (`YYYYMMDD` or `YYYY-MM-DD`, in the zone). */
  since?: string;
  /** Only responses on or before this day. */
  until?: string;
  /** A row per model under each row of the table. */
  breakdown?: boolean;
  /** With files: also count each one's subagent transcripts (`<dir>/<id>/subagents/`). Default true. */
  subagents?: boolean;
  /** Show a progress bar (default: when stderr is a terminal). */
  progress?: boolean;
  /** romp's home, where the index is (`index.db`). */
  rompHome?: string;
  /** `false` (`--no-index`): read every transcript, not what the index holds of them. */
  index?: boolean;
}

/**
 * `romp usage [REPORT] [FILES...] [--projects DIR]`: tokens and cost of every API response in the
 * files, each counted once, as one report's table (`daily` by default; `weekly`, `monthly`, `session`,
 * `project`, `blocks`: `groupUsage`) in `--timezone` (default the machine's), `--since`/`--until`
 * days, `--breakdown` per model; a progress bar on a terminal for a whole projects folder. `--json`
 * without a report prints `countUsage`'s totals (`total`, `bySession`, `byDay`, `byModel`,
 * `unknownModels`); with one, `{report, timeZone, rows, total}`, the rows' times (`first`, `last`, a
 * block's `end` and its `key`, its start) as ISO strings with the zone's offset (`isoTime`). The session
 * and project reports name a project as `romp ls` does, by its real folder (`cwd` in their `--json` rows, beside the
 * folder's name: `project`, `key`). Given files bring their sessions' subagent
 * transcripts (`sessionSubagents`: nested `<dir>/<id>/subagents/` from Claude Code 2.1.2, flat
 * `<dir>/agent-*.jsonl` before), where subagent spend is written, unless `--no-subagents`. A file
 * that cannot be read is named on stderr after the report, exit 2: the totals leave it out. The
 * diagnostics are printed in the files' order. With romp's index (`romp index`), a file that still has
 * the stamp its usage was read from is not read again (`storedUsage`, and `storedListings` for the
 * session report's titles); any other file is read as without the index: the same output.
 * Sessions are named as every command names them (`resolveTargets`): paths, session ids or unique prefixes
 * (looked up under `--projects`), `-` for standard input, `--latest` and `--project DIR`.
 * @param args the report's name (optional), then transcript paths, session ids or `-`
 * @param options projects folder, zone, days, breakdown, price file, json
 * @param io where to write
 * @returns the exit code
 */
export async function runUsage(args: string[], options: UsageCliOptions, io: CliIO): Promise<number> {
  const named = args[0] !== undefined && (USAGE_REPORTS as readonly string[]).includes(args[0]) && !existsSync(args[0]);
  const kind = (named ? args[0] : 'daily') as UsageReportKind;
  const given = named ? args.slice(1) : args;
  if (options.projects !== undefined && given.some((f) => f === '-' || existsSync(f)))
    throw new UserError('give transcript files or --projects, not both (a session id is looked up under --projects)');
  const targets = await resolveTargets(given, options, 'many', io);
  try {
    return await usageOf(kind, named, targets.files, options, io);
  } finally {
    await targets.cleanup();
  }
}

/** `romp usage` on the files the arguments named (none: every transcript under the projects folder). */
async function usageOf(
  kind: UsageReportKind,
  named: boolean,
  files: string[],
  options: UsageCliOptions,
  io: CliIO,
): Promise<number> {
  const since = options.since === undefined ? undefined : dayOption('--since', options.since);
  const until = options.until === undefined ? undefined : dayOption('--until', options.until);
  if (files.length === 0 && options.subagents === false)
    throw new UserError('--no-subagents applies to files given; --projects reads every transcript');
  await checkTranscripts(files);
  const paths =
    files.length > 0
      ? await withSubagents(files, options.subagents !== false)
      : await allTranscripts(
          options.projects ?? join(process.env['CLAUDE_CONFIG_DIR'] ?? join(homedir(), '.claude'), 'projects'),
          io,
        );
  const prices = options.prices === undefined ? PRICES : await readPrices(options.prices);
  // what only a table, a progress bar or the index use is loaded then (issue 16: start-up)
  const bar =
    (options.progress ?? (process.stderr.isTTY === true && files.length === 0))
      ? new (await import('cli-progress')).SingleBar({
          format: 'usage {bar} {value}/{total} files',
          stream: process.stderr,
          clearOnComplete: true,
        })
      : undefined;
  bar?.start(paths.length, 0);
  let report: UsageReport;
  const diagnostics: Diagnostic[] = [];
  const db = options.index === false ? undefined : await readIndex(options.rompHome);
  let labels: UsageLabels | undefined;
  try {
    report = await countUsage(paths, {
      prices,
      workers: usageThreads(),
      bytesPerWorker: USAGE_BYTES_PER_THREAD,
      ...(options.timezone === undefined ? {} : { timeZone: options.timezone }),
      ...(db === undefined ? {} : { stored: (await import('../index-db/usage-files.ts')).storedUsage(db) }),
      onFile: () => bar?.increment(),
      onDiagnostic: (d) => diagnostics.push(d),
    });
    if (kind === 'session' || kind === 'project')
      labels = await usageLabels(
        paths,
        db === undefined ? undefined : (await import('../index-db/listings.ts')).storedListings(db),
      );
  } finally {
    bar?.stop();
    db?.close();
  }
  reportDiagnostics(inFileOrder(diagnostics, paths), io);
  // what could not be read is not counted: the totals are printed, and the exit code says they are short
  const code = (): number =>
    reportUnreadable(
      diagnostics.filter((d) => d.code === 'FILE_UNREADABLE'),
      io,
    );
  const group = {
    prices,
    ...(options.timezone === undefined ? {} : { timeZone: options.timezone }),
    ...(since === undefined ? {} : { since }),
    ...(until === undefined ? {} : { until }),
  };
  if (options.json === true && !named && since === undefined && until === undefined) {
    const { responses: _responses, ...rest } = report;
    io.stdout.write(`${JSON.stringify(rest)}\n`);
    return code();
  }
  const rows = withCwd(groupUsage(report.responses, kind, group), kind, labels);
  const total = emptyTotals();
  for (const row of rows) for (const m of row.models) addTotals(total, m.totals);
  if (options.json === true) {
    const iso = isoTime(options.timezone);
    // a block's key is its start: an ISO time in the zone too
    const json = rows.map((row) =>
      withIsoTimes(
        kind === 'blocks' && row.key !== 'unknown' ? { ...row, key: iso(Date.parse(row.key)) } : row,
        ['first', 'last', 'end'],
        iso,
      ),
    );
    io.stdout.write(
      `${JSON.stringify({ report: kind, timeZone: group.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone, rows: json, total })}\n`,
    );
    return code();
  }
  const { formatUsageTable } = await import('./format-usage.ts'); // with cli-table3: for a table only
  const time = timeFormat(options.timezone);
  const columns = outputWidth(io.stdout);
  const table = formatUsageTable(kind, rows, total, {
    time: time.format,
    ...(options.breakdown === true ? { breakdown: true } : {}),
    ...(typeof columns === 'number' ? { columns } : {}),
    ...(labels === undefined ? {} : { sessions: labels.sessions }),
  });
  const notes = [
    ...(report.unknownModels.length > 0
      ? [
          `no price for: ${report.unknownModels.join(', ')} (their tokens are counted, their cost is not; --prices FILE adds one)`,
        ]
      : []),
    ...(total.lowerBound
      ? [
          '≥: some responses were written before their final usage (Claude Code before 2.1.112, stop_reason null on every line): output is a lower bound',
        ]
      : []),
  ];
  io.stdout.write(
    `${[...wrapLines([`Usage ${TITLES[kind]} (times in ${time.zone}; each API response counted once)`], columns), table, ...wrapLines(notes, columns)].join('\n')}\n`,
  );
  return code();
}

const TITLES: Record<UsageReportKind, string> = {
  daily: 'by day',
  weekly: 'by ISO week',
  monthly: 'by month',
  session: 'by session',
  project: 'by project',
  blocks: 'by 5-hour billing block',
};

/** Adds one totals row into another (what `addResponse` adds, summed). */
function addTotals(into: Totals, t: Totals): void {
  for (const key of [
    'input_tokens',
    'output_tokens',
    'cache_creation_input_tokens',
    'cache_creation_5m',
    'cache_creation_1h',
    'cache_read_input_tokens',
    'cost_usd',
    'responses',
    'unpriced',
  ] as const)
    into[key] += t[key];
  into.lowerBound ||= t.lowerBound;
}

/** What the session and project reports name beside their numbers, from `romp ls`'s listings: each session's title,
 * last activity and cwd by session id, each listed file's cwd by path, and each project folder's cwd (its newest
 * session's that has one). */
interface UsageLabels {
  sessions: Map<string, SessionLabel>;
  files: Map<string, string>;
  folders: Map<string, string>;
}

/** The labels of the sessions and project folders the files belong to, as `romp ls` lists them (with the index's
 * listings of files that did not change, `stored`). */
async function usageLabels(
  paths: string[],
  stored: ((path: string) => Promise<FileListing | undefined>) | undefined,
): Promise<UsageLabels> {
  const labels: UsageLabels = { sessions: new Map(), files: new Map(), folders: new Map() };
  const folders = new Set(paths.filter((p) => !p.includes(`${sep}subagents${sep}`)).map((p) => dirname(p)));
  for (const folder of folders) {
    for (const s of await listClaudeSessions({
      projectsDir: dirname(folder),
      project: basename(folder),
      ...(stored === undefined ? {} : { stored }),
    })) {
      if (s.cwd !== '' && !labels.folders.has(s.project)) labels.folders.set(s.project, s.cwd);
      if (s.cwd !== '') labels.files.set(s.path, s.cwd);
      if (s.orphan !== true && !labels.sessions.has(s.id))
        labels.sessions.set(s.id, { title: s.title || s.firstPrompt, last: s.last, cwd: s.cwd });
    }
  }
  return labels;
}

/**
 * The rows of the session and project reports with `cwd`, the project's real folder as `romp ls` shows it: a
 * session's own cwd (of the file its first response is in, else of the file named by its id: a session resumed in
 * another folder, or a file renamed, has a cwd of its own, not its folder's), else its project folder's; `""` when no
 * line of the folder has one (the folder's name, `project` or `key`, is kept beside it). Other reports' rows are
 * unchanged. The first response's `file` is left out of the rows.
 */
function withCwd(rows: ReportRow[], kind: UsageReportKind, labels: UsageLabels | undefined): ReportRow[] {
  return rows.map(({ file, ...row }) => {
    if (labels === undefined) return row;
    const folder = kind === 'project' ? row.key : (row.project ?? '');
    const own = kind === 'session' ? labels.files.get(file ?? '') || labels.sessions.get(row.key)?.cwd : undefined;
    return { ...row, cwd: own || (labels.folders.get(folder) ?? '') };
  });
}

/** The diagnostics in the order of their files (a file's own in the order met), however the files were read. */
function inFileOrder(diagnostics: Diagnostic[], paths: string[]): Diagnostic[] {
  const position = new Map(paths.map((p, i) => [p, i]));
  const at = (d: Diagnostic): number => position.get(d.file) ?? paths.length;
  return [...diagnostics].sort((a, b) => at(a) - at(b));
}

/** Says on stderr what the counting met: lines that could not be read (not counted) apart from lines read with a
 * warning (counted). A file that could not be read at all is no line: `reportUnreadable` names it. */
function reportDiagnostics(diagnostics: Diagnostic[], io: CliIO): void {
  const errors = diagnostics.filter((d) => d.severity === 'error' && d.code !== 'FILE_UNREADABLE');
  const warnings = diagnostics.filter((d) => d.severity === 'warning');
  writeDiagnostics(
    io,
    errors,
    `${plural(errors.length, 'assistant line')} could not be read and ${errors.length === 1 ? 'is' : 'are'} not counted (romp doctor FILE lists them all):`,
    5,
  );
  writeDiagnostics(
    io,
    warnings,
    `${plural(warnings.length, 'assistant line')} ${warnings.length === 1 ? 'was' : 'were'} read with a warning and ${warnings.length === 1 ? 'is' : 'are'} counted (romp doctor FILE lists them all):`,
    5,
  );
}

const PRICE_FIELDS = ['input', 'output', 'cache_write_5m', 'cache_write_1h', 'cache_read'] as const;

/**
 * The price table with `--prices FILE` over it: a model of the built-in table takes the fields given
 * and keeps the others (a partial override); a new model needs `input` and `output`, and its cache
 * prices default to the standard multipliers (write 1.25× / 2× input, read 0.1× input). A table keyed
 * by model names from a file: no prototype, so no name (`__proto__`) reaches `Object.prototype`.
 */
export async function readPrices(path: string): Promise<Record<string, Price>> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw new UserError(`${path}: cannot read prices: ${(error as Error).message}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new UserError(`${path}: prices must be an object {model: {${PRICE_FIELDS.join(', ')}}}`);
  const table: Record<string, Price> = Object.assign(Object.create(null) as Record<string, Price>, PRICES);
  for (const [model, given] of Object.entries(parsed)) {
    if (typeof given !== 'object' || given === null || Array.isArray(given))
      throw new UserError(`${path}: ${model}: give an object of prices in USD per million tokens`);
    const fields = given as Record<string, unknown>;
    const unknown = Object.keys(fields).filter((f) => !(PRICE_FIELDS as readonly string[]).includes(f));
    const bad = PRICE_FIELDS.filter(
      (f) => f in fields && (typeof fields[f] !== 'number' || !Number.isFinite(fields[f]) || (fields[f] as number) < 0),
    );
    if (unknown.length > 0)
      throw new UserError(`${path}: ${model}: unknown price ${unknown.join(', ')} (known: ${PRICE_FIELDS.join(', ')})`);
    if (bad.length > 0)
      throw new UserError(`${path}: ${model}: ${bad.join(', ')} must be numbers ≥ 0 (USD per million tokens)`);
    const base = Object.hasOwn(PRICES, model) ? PRICES[model] : undefined;
    const input = (fields['input'] as number | undefined) ?? base?.input;
    const output = (fields['output'] as number | undefined) ?? base?.output;
    if (input === undefined || output === undefined)
      throw new UserError(
        `${path}: ${model}: a model without a built-in price needs input and output (USD per million tokens)`,
      );
    const standard: Price = base ?? {
      input,
      output,
      cache_write_5m: input * 1.25,
      cache_write_1h: input * 2,
      cache_read: input * 0.1,
    };
    table[model] = { ...standard, ...(fields as Partial<Price>) };
  }
  return table;
}

/** Every transcript `romp ls` lists (and the other `*.jsonl` below the project folders): `discoverTranscripts`; a
 * missing or unreadable projects folder is `checkProjectsFolder`'s one error, as in every command listing sessions.
 * An empty one is none (a new install): `romp: no sessions under DIR` on stderr, and no file, for a report of nothing
 * (exit 0, as `romp ls` lists no session). */
export async function allTranscripts(dir: string, io: CliIO): Promise<string[]> {
  await checkProjectsFolder(dir);
  const { files, skipped } = await discoverTranscripts(dir);
  for (const s of skipped) reportSkipped(s, io);
  if (files.length === 0) io.stderr.write(`romp: no sessions under ${dir}\n`);
  return files.map((f) => f.path);
}
