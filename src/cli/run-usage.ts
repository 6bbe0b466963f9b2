import { SingleBar } from 'cli-progress';
import { readFile, readdir, stat } from 'node:fs/promises';
import { availableParallelism, homedir } from 'node:os';
import { join } from 'node:path';
import { countUsage, type Totals, type UsageReport } from '../usage/count-usage.ts';
import { PRICES, type Price } from '../usage/prices.ts';
import { UserError, type CliIO } from './cli-io.ts';

/** Options of `romp usage`. */
export interface UsageCliOptions {
  projects?: string;
  timezone?: string;
  prices?: string;
  json?: boolean;
  /** Show a progress bar (default: when stderr is a terminal). */
  progress?: boolean;
}

/**
 * `romp usage [FILES...] [--projects DIR]`: tokens and cost of every API response in the files, each
 * counted once, per session, per day (in `--timezone`, default the machine's) and per model; a
 * progress bar on a terminal for a whole projects folder.
 * @param files transcript paths
 * @param options projects folder, zone, price file, json
 * @param io where to write
 * @returns the exit code
 */
export async function runUsage(files: string[], options: UsageCliOptions, io: CliIO): Promise<number> {
  const paths = files.length > 0 ? files : await allTranscripts(options.projects ?? join(process.env['CLAUDE_CONFIG_DIR'] ?? join(homedir(), '.claude'), 'projects'));
  const prices = options.prices === undefined ? PRICES : { ...PRICES, ...(await readPrices(options.prices)) };
  const bar = options.progress ?? (process.stderr.isTTY === true && files.length === 0) ? new SingleBar({ format: 'usage {bar} {value}/{total} files', stream: process.stderr, clearOnComplete: true }) : undefined;
  bar?.start(paths.length, 0);
  let report: UsageReport;
  try {
    report = await countUsage(paths, { prices, workers: availableParallelism(), ...(options.timezone === undefined ? {} : { timeZone: options.timezone }), onFile: (_, done) => bar?.update(done) });
  } catch (error) {
    throw new UserError(`bad --timezone ${String(options.timezone)}: ${(error as Error).message}`);
  } finally {
    bar?.stop();
  }
  if (options.json === true) {
    const { responses: _responses, ...rest } = report;
    io.stdout.write(`${JSON.stringify(rest)}\n`);
    return 0;
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
  if (report.total.lowerBound) io.stdout.write('some responses come from Claude Code ≤2.1.20, which never wrote final output tokens: output is a lower bound\n');
  return 0;
}

function line(t: Totals): string {
  return `in ${t.input_tokens}  out ${t.output_tokens}  cache write ${t.cache_creation_input_tokens}  cache read ${t.cache_read_input_tokens}  $${t.cost_usd.toFixed(4)}  (${t.responses} responses)`;
}

async function readPrices(path: string): Promise<Record<string, Price>> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as Record<string, Price>;
  } catch (error) {
    throw new UserError(`${path}: cannot read prices: ${(error as Error).message}`);
  }
}

async function allTranscripts(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (d: string): Promise<void> => {
    let names: string[];
    try {
      names = await readdir(d);
    } catch {
      return;
    }
    for (const name of names.sort()) {
      const path = join(d, name);
      if (name.endsWith('.jsonl')) out.push(path);
      else if ((await stat(path)).isDirectory()) await walk(path);
    }
  };
  await walk(dir);
  if (out.length === 0) throw new UserError(`no transcripts under ${dir}`);
  return out;
}
