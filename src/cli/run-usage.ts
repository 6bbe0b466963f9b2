import { SingleBar } from 'cli-progress';
import { readFile } from 'node:fs/promises';
import { availableParallelism, homedir } from 'node:os';
import { join } from 'node:path';
import { countUsage, type Totals, type UsageReport } from '../usage/count-usage.ts';
import { PRICES, type Price } from '../usage/prices.ts';
import { formatDiagnostic, type Diagnostic } from '../diagnostics/diagnostic.ts';
import { checkFiles, reportSkipped, reportUnreadable, UserError, type CliIO } from './cli-io.ts';
import { sessionSubagents } from '../discover/list-claude-sessions.ts';
import { discoverTranscripts } from '../discover/discover-transcripts.ts';

/** Options of `romp usage`. */
export interface UsageCliOptions {
  projects?: string;
  timezone?: string;
  prices?: string;
  json?: boolean;
  /** With files: also count each one's subagent transcripts (`<dir>/<id>/subagents/`). Default true. */
  subagents?: boolean;
  /** Show a progress bar (default: when stderr is a terminal). */
  progress?: boolean;
}

/**
 * `romp usage [FILES...] [--projects DIR]`: tokens and cost of every API response in the files, each
 * counted once, per session, per day (in `--timezone`, default the machine's) and per model; a
 * progress bar on a terminal for a whole projects folder. Given files bring their sessions' subagent
 * transcripts (`sessionSubagents`: nested `<dir>/<id>/subagents/` from Claude Code 2.1.2, flat
 * `<dir>/agent-*.jsonl` before), where subagent spend is written, unless `--no-subagents`. A file
 * that cannot be read is named on stderr after the report, exit 2: the totals leave it out.
 * @param files transcript paths
 * @param options projects folder, zone, price file, json
 * @param io where to write
 * @returns the exit code
 */
export async function runUsage(files: string[], options: UsageCliOptions, io: CliIO): Promise<number> {
  if (options.timezone !== undefined) {
    try {
      new Intl.DateTimeFormat('en', { timeZone: options.timezone });
    } catch {
      throw new UserError(`--timezone ${options.timezone} is not an IANA time zone (e.g. Europe/Paris, America/New_York, UTC)`);
    }
  }
  if (files.length > 0 && options.projects !== undefined) throw new UserError('give transcript files or --projects, not both');
  if (files.length === 0 && options.subagents === false) throw new UserError('--no-subagents applies to files given; --projects reads every transcript');
  await checkFiles(files);
  const paths = files.length > 0 ? await withSubagents(files, options.subagents !== false) : await allTranscripts(options.projects ?? join(process.env['CLAUDE_CONFIG_DIR'] ?? join(homedir(), '.claude'), 'projects'), io);
  const prices = options.prices === undefined ? PRICES : { ...PRICES, ...(await readPrices(options.prices)) };
  const bar = options.progress ?? (process.stderr.isTTY === true && files.length === 0) ? new SingleBar({ format: 'usage {bar} {value}/{total} files', stream: process.stderr, clearOnComplete: true }) : undefined;
  bar?.start(paths.length, 0);
  let report: UsageReport;
  const diagnostics: Diagnostic[] = [];
  try {
    report = await countUsage(paths, {
      prices,
      workers: availableParallelism(),
      ...(options.timezone === undefined ? {} : { timeZone: options.timezone }),
      onFile: (_, done) => bar?.update(done),
      onDiagnostic: (d) => diagnostics.push(d),
    });
  } finally {
    bar?.stop();
  }
  reportDiagnostics(diagnostics, io);
  // what could not be read is not counted: the totals are printed, and the exit code says they are short
  const code = (): number => reportUnreadable(diagnostics.filter((d) => d.code === 'FILE_UNREADABLE'), io);
  if (options.json === true) {
    const { responses: _responses, ...rest } = report;
    io.stdout.write(`${JSON.stringify(rest)}\n`);
    return code();
  }
  const table = (title: string, rows: Record<string, Totals>): void => {
    io.stdout.write(`${title}\n`);
    for (const [key, t] of Object.entries(rows).sort(([a], [b]) => a.localeCompare(b))) io.stdout.write(`  ${key.padEnd(38)} ${line(t)}\n`);
  };
  table('by session', report.bySession);
  table('by day', report.byDay);
  table('by model', report.byModel);
  io.stdout.write(`total  ${line(report.total)}\n`);
  if (report.unknownModels.length > 0) io.stdout.write(`no price for: ${report.unknownModels.join(', ')} (tokens counted, cost not)\n`);
  if (report.total.lowerBound) io.stdout.write('some responses were written before their final usage (Claude Code before 2.1.112, stop_reason null on every line): output is a lower bound\n');
  return code();
}

/** A row; a cost that leaves out unpriced responses says so (`no price`, or `≥ $X (N unpriced)`), never a bare sum. */
/** Lines that could not be read are not counted: say how many, and show the first few (on stderr). */
function reportDiagnostics(diagnostics: Diagnostic[], io: CliIO): void {
  const lost = diagnostics.filter((d) => d.severity !== 'info');
  if (lost.length === 0) return;
  io.stderr.write(`${lost.length} problems on assistant lines (what could not be read is not counted; romp doctor tells more):\n`);
  for (const d of lost.slice(0, 5)) io.stderr.write(`  ${formatDiagnostic(d)}\n`);
  if (lost.length > 5) io.stderr.write(`  … and ${lost.length - 5} more\n`);
}

function line(t: Totals): string {
  const sum = `$${t.cost_usd.toFixed(4)}`;
  const cost = t.unpriced === 0 ? sum : t.unpriced === t.responses ? 'no price' : `≥ ${sum} (${t.unpriced} unpriced)`;
  return `in ${t.input_tokens}  out ${t.output_tokens}  cache write ${t.cache_creation_input_tokens}  cache read ${t.cache_read_input_tokens}  ${cost}  (${t.responses} responses)`;
}

const PRICE_FIELDS = ['input', 'output', 'cache_write_5m', 'cache_write_1h', 'cache_read'] as const;

async function readPrices(path: string): Promise<Record<string, Price>> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw new UserError(`${path}: cannot read prices: ${(error as Error).message}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new UserError(`${path}: prices must be an object {model: {${PRICE_FIELDS.join(', ')}}}`);
  for (const [model, price] of Object.entries(parsed)) {
    const bad = PRICE_FIELDS.filter((f) => {
      const v = (price as Record<string, unknown> | null)?.[f];
      return typeof v !== 'number' || !Number.isFinite(v) || v < 0;
    });
    if (bad.length > 0) throw new UserError(`${path}: ${model}: ${bad.join(', ')} must be numbers ≥ 0 (USD per million tokens)`);
  }
  return parsed as Record<string, Price>;
}

/** Every transcript `romp ls` lists (and the other `*.jsonl` below the project folders): `discoverTranscripts`. */
async function allTranscripts(dir: string, io: CliIO): Promise<string[]> {
  const { files, skipped } = await discoverTranscripts(dir);
  for (const s of skipped) reportSkipped(s, io);
  if (files.length === 0) throw new UserError(`no transcripts under ${dir}`);
  return files.map((f) => f.path);
}

/** The files, each followed by its session's subagent transcripts when asked (each path once). */
async function withSubagents(files: string[], subagents: boolean): Promise<string[]> {
  if (!subagents) return files;
  const paths = new Set<string>();
  for (const file of files) {
    paths.add(file);
    for (const agent of await sessionSubagents(file)) paths.add(agent);
  }
  return [...paths];
}
