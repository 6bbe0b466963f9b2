import { basename } from 'node:path';
import { defaultProjectsDir } from '../discover/list-claude-sessions.ts';
import { refuseUnrelated } from './refuse-unrelated.ts';
import { CACHE_CLOCK_TIMES, cacheClock } from '../cache/cache-clock.ts';
import { explainCacheWrites, type CacheGroup, type CauseTotals } from '../cache/explain-cache-writes.ts';
import { readCacheLines } from '../cache/read-cache-lines.ts';
import { rompHomeFolder } from './romp-home-folder.ts';
import { readIdleSpans } from '../romp-home/state-log.ts';
import { parseSession } from '../session/parse-session.ts';
import { countUsage } from '../usage/count-usage.ts';
import { keyed } from '../model/keyed.ts';
import { PRICES } from '../usage/prices.ts';
import { UserError, type CliIO } from './cli-io.ts';
import { checkTranscripts } from './check-transcripts.ts';
import { fitLines, outputWidth } from './fit-width.ts';
import { isoTime, withIsoTimes } from './iso-time.ts';
import { formatCount, plural } from '../text/format-count.ts';
import { resolveTargets, type TargetOptions } from './resolve-targets.ts';
import { allTranscripts, readPrices, withSubagents } from './run-usage.ts';

/** Options of `romp cache`. */
export interface CacheCliOptions extends TargetOptions {
  json?: boolean;
  statusline?: boolean;
  timezone?: string;
  prices?: string;
  rompHome?: string;
}

/**
 * `romp cache SESSION`: why each API response wrote to the prompt cache (`explainCacheWrites`), with
 * its subagents' transcripts, as `romp usage FILE` counts them; without a session and with
 * `--projects DIR`, every transcript of the folder. Totals by cause, project and day; `--json` prints
 * the `CacheReport`. Idle spans in romp's state logs count as human time. `--statusline` prints the session's
 * `CacheClock` as JSON instead (its times ISO strings with the zone's offset: `isoTime`); without a
 * session it reads Claude Code's status-line input on stdin (`{"transcript_path": …}`).
 * @param args the session (`resolveTargets`)
 * @param options json, statusline, zone, prices, projects folder
 * @param io where to write
 * @returns the exit code
 */
export async function runCache(args: string[], options: CacheCliOptions, io: CliIO): Promise<number> {
  if (options.statusline === true) return statusline(args, options, io);
  const whole = args.length === 0 && options.latest !== true && options.project === undefined;
  const targets = whole ? { files: [], cleanup: async () => {} } : await resolveTargets(args, options, 'one', io);
  try {
    if (!whole && targets.files.length === 0)
      throw new UserError(
        'which session? give a transcript file, a session id (or a unique prefix), --latest, --project DIR, or --projects DIR for all of them',
      );
    await checkTranscripts(targets.files);
    // several files named: the files of one session (a resume's), never two summed silently
    if (targets.files.length > 1) await refuseUnrelated(await parseSession(targets.files));
    const files = whole
      ? await allTranscripts(options.projects ?? defaultProjectsDir(), io)
      : await withSubagents(targets.files, true);
    const prices = options.prices === undefined ? PRICES : await readPrices(options.prices);
    const zone = options.timezone === undefined ? {} : { timeZone: options.timezone };
    const usage = await countUsage(files, { prices, ...zone });
    const home = rompHomeFolder(options.rompHome);
    const idle = (
      await Promise.all(
        files.map(async (file) =>
          (await readIdleSpans(home, basename(file, '.jsonl'), () => {})).map((s) => ({
            file,
            t: s.t,
            end: s.end ?? Date.now(),
          })),
        ),
      )
    ).flat();
    const { report } = explainCacheWrites(usage.responses, await readCacheLines(files), { prices, ...zone, idle });
    const projects = new Map<string, CacheGroup>();
    for (const s of Object.values(report.bySession)) {
      const p = projects.get(s.project) ?? { ...zeroGroup() };
      projects.set(s.project, p);
      merge(p, s);
    }
    if (options.json === true) {
      // by project too, as the text report (a project path is transcript text: `keyed`)
      const byProject = keyed<CacheGroup>();
      for (const [name, g] of projects) byProject[name] = g;
      io.stdout.write(`${JSON.stringify({ ...report, byProject })}\n`);
      return 0;
    }
    const out = [
      `Cache writes: ${formatCount(report.total.tokens)} tokens, ${usd(report.total.cost_usd)} (each API response once, as romp usage counts them)`,
      '',
      'by cause:',
      ...rows(report.causes),
    ];
    out.push('', 'by project:', ...[...projects].map(([name, g]) => line(name === '' ? '(unknown)' : name, g)));
    out.push('', 'by session:', ...Object.entries(report.bySession).map(([id, g]) => line(id, g)));
    out.push(
      '',
      `by day${options.timezone === undefined ? '' : ` (${options.timezone})`}:`,
      ...Object.entries(report.byDay).map(([day, g]) => line(day, g)),
    );
    io.stdout.write(`${fitLines(out.join('\n').split('\n'), outputWidth(io.stdout)).join('\n')}\n`);
    if (usage.unknownModels.length > 0)
      io.stdout.write(
        `no price for: ${usage.unknownModels.join(', ')} (their tokens are counted, their cost is not)\n`,
      );
    return 0;
  } finally {
    await targets.cleanup();
  }
}

async function statusline(args: string[], options: CacheCliOptions, io: CliIO): Promise<number> {
  let files: string[];
  if (args.length === 0 && options.latest !== true && options.project === undefined) {
    let input = '';
    for await (const chunk of io.stdin ?? [])
      input += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    let path: unknown;
    try {
      path = (JSON.parse(input) as { transcript_path?: unknown } | null)?.transcript_path;
    } catch {
      path = undefined;
    }
    if (typeof path !== 'string')
      throw new UserError(
        '--statusline without a session reads {"transcript_path": …} on stdin, as Claude Code sends a status-line command',
      );
    files = [path];
  } else files = (await resolveTargets(args, options, 'one', io)).files;
  await checkTranscripts(files);
  const { session } = await parseSession(files);
  const clock = cacheClock(
    session,
    Date.now(),
    options.prices === undefined ? PRICES : await readPrices(options.prices),
  );
  const json = clock === undefined ? null : withIsoTimes(clock, CACHE_CLOCK_TIMES, isoTime(options.timezone));
  io.stdout.write(`${JSON.stringify({ session: session.rompUuid, cache_clock: json })}\n`);
  return 0;
}

const zeroGroup = (): CacheGroup => ({
  responses: 0,
  tokens: 0,
  cost_usd: 0,
  extra_cost_usd: 0,
  causes: Object.create(null) as Record<string, CauseTotals>,
});

function merge(into: CacheGroup, g: CacheGroup): void {
  for (const k of ['responses', 'tokens', 'cost_usd', 'extra_cost_usd'] as const) into[k] += g[k];
}

function rows(causes: Record<string, CauseTotals>): string[] {
  return Object.entries(causes)
    .sort((a, b) => b[1].tokens - a[1].tokens)
    .map(([cause, t]) => line(cause, t));
}

/** A row: name, responses, tokens, USD, extra over a warm cache; a name past 16 columns on a line of its own, so
 * that each line fits 80 columns. */
function line(name: string, t: CauseTotals): string {
  const numbers = `${plural(t.responses, 'response').padStart(14)} ${formatCount(t.tokens).padStart(12)} tokens ${usd(t.cost_usd).padStart(8)}  +${usd(t.extra_cost_usd)} vs warm`;
  return name.length > 16 ? `  ${name}\n  ${' '.repeat(16)} ${numbers}` : `  ${name.padEnd(16)} ${numbers}`;
}

const usd = (n: number): string => `$${n.toFixed(2)}`;
