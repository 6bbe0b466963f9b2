/**
 * `npm run bench`: the file adapter's speed and memory against the floor measured in the same run, on
 * real-shaped data: the corpus file by file, and one 200 MiB session made of copies of real corpus
 * sessions (`bench/replicate.ts`). CPU time (`process.cpuUsage`, user + system) is the headline: on this
 * shared machine it moves far less with the load than wall time, which is printed beside it.
 *
 * Floor = read the same bytes as romp reads them (system calls on the calling thread, one reused buffer), split
 * lines, `JSON.parse` each line, keep nothing; a second baseline also keeps every parsed value (what holding a
 * model in memory costs the garbage collector, with no other work). Between them and romp, romp's read stage alone
 * (its `RecordDecoder`, skipping what the model never reads, keeping every record): what is left above it is the
 * model's. Ours = `parseSession` (the whole model). Each measure runs in processes of its own, in alternating
 * rounds: once cold, then warm; the medians of the warm runs are compared, and the ratios of the best warm runs
 * (the spread: JIT and collector churn) and of the cold runs printed beside them.
 * Peak memory is the child process's peak resident set (VmHWM) over the file's size.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RecordDecoder } from '../src/read/record-decoder.ts';
import { parseSession } from '../src/session/parse-session.ts';
import { floor, readAsRomp } from './floor.ts';
import { CORPUS, REPLICA_VERSION, replicateSession } from './replicate.ts';

const HERE = fileURLToPath(import.meta.url);
const MB = 1024 * 1024;

/**
 * romp's read stage alone: the session builder's `RecordDecoder` (`skipUnread`: `toolUseResult` values and progress
 * rows' `data` left undecoded and unparsed), keeping every record it hands over and no model. What is left of
 * `parseSession` above it is the model's share (collecting, graph, tree, session) and the collector's for holding it.
 */
function readStage(path: string): Promise<number> {
  const kept: unknown[] = [];
  const decoder = new RecordDecoder(
    path,
    (record) => kept.push(record),
    () => {},
    { skipUnread: true },
  );
  readAsRomp(path, (chunk) => decoder.push(chunk));
  decoder.end();
  return Promise.resolve(kept.length);
}

async function ours(path: string): Promise<number> {
  const { session } = await parseSession([path]);
  return session.turns.length;
}

/** The four measures, each run in a child process of its own (`--measure NAME FILES...`). */
const MEASURES = {
  floor: (path: string) => floor(path),
  keep: (path: string) => floor(path, true),
  read: readStage,
  romp: ours,
} as const;
type Measure = keyof typeof MEASURES;

/**
 * In a child process: runs one measure over the files `1 + timed` times and prints the times in ms
 * (the first is cold: it includes compiling the code). A process per measure keeps one measure's
 * compiled code and heap from slowing another (they share `LineDecoder`).
 */
async function measureChild(name: Measure, timed: number, files: string[]): Promise<void> {
  const runs: Run[] = [];
  for (let i = 0; i <= timed; i++) {
    globalThis.gc?.();
    const start = process.hrtime.bigint();
    const cpu = process.cpuUsage();
    for (const p of files) await MEASURES[name](p);
    const used = process.cpuUsage(cpu);
    runs.push({ wall: Number(process.hrtime.bigint() - start) / 1e6, cpu: (used.user + used.system) / 1000 });
  }
  console.log(JSON.stringify(runs));
}

/** One timed pass over the files: wall and CPU time (user + system), ms. */
interface Run {
  wall: number;
  cpu: number;
}

function runChild(name: Measure, timed: number, files: string[]): Run[] {
  const out = execFileSync(process.execPath, ['--expose-gc', HERE, '--measure', name, String(timed), ...files], {
    maxBuffer: 1 << 20,
  });
  return JSON.parse(out.toString()) as Run[];
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

/**
 * Floor, keeping floor, read stage and romp over the same files: `rounds` rounds, each running the four in turn
 * (every other round in reverse order), each in a fresh process that runs the files once cold, then
 * `timed` times warm. Reports the medians of the warm runs' CPU time (the ratio that counts), their
 * wall time, and the ratios of the best warm runs and of the cold runs.
 */
async function compare(
  label: string,
  files: string[],
  bytes: number,
  target: number,
  rounds = 3,
  timed = 3,
): Promise<void> {
  const warm: Record<Measure, Run[]> = { floor: [], keep: [], read: [], romp: [] };
  const cold: Record<Measure, Run[]> = { floor: [], keep: [], read: [], romp: [] };
  for (let i = 0; i < rounds; i++) {
    // every other round in reverse: on a shared machine the position in a round shifts the times too
    const order = ['floor', 'keep', 'read', 'romp'] as const;
    for (const name of i % 2 === 0 ? order : [...order].reverse()) {
      const [first, ...rest] = runChild(name, timed, files);
      if (first !== undefined) cold[name].push(first);
      warm[name].push(...rest);
    }
  }
  const cpu = (runs: Run[]): number[] => runs.map((r) => r.cpu);
  const wall = (runs: Run[]): number[] => runs.map((r) => r.wall);
  const rate = (ms: number): string => `${(bytes / MB / (ms / 1000)).toFixed(1)} MB/s`;
  const row = (text: string, name: Measure, goal = ''): void => {
    const [c, w] = [median(cpu(warm[name])), median(wall(warm[name]))];
    const others = `wall ${(w / median(wall(warm.floor))).toFixed(2)}x, best run ${(Math.min(...cpu(warm[name])) / Math.min(...cpu(warm.floor))).toFixed(2)}x, cold ${(median(cpu(cold[name])) / median(cpu(cold.floor))).toFixed(2)}x`;
    const ratio =
      name === 'floor' ? '' : `  = ${(c / median(cpu(warm.floor))).toFixed(2)}x the floor's CPU${goal} (${others})`;
    console.log(
      `  ${text.padEnd(28)} cpu ${c.toFixed(0).padStart(6)} ms  wall ${w.toFixed(0).padStart(6)} ms ${rate(w).padStart(11)}${ratio}`,
    );
  };
  console.log(
    `${label}: ${(bytes / MB).toFixed(1)} MB in ${files.length} files (medians of ${rounds * timed} warm runs in ${rounds} processes each; load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')})`,
  );
  row('floor (split + JSON.parse)', 'floor');
  row('floor + keeping every value', 'keep');
  row('romp read stage, no model', 'read');
  row('romp parseSession', 'romp', ` (target <= ${target}x)`);
}

/** In a child process: parse one file and print the peak resident set in bytes. */
async function peakChild(path: string): Promise<void> {
  await ours(path);
  const status = await (await open('/proc/self/status', 'r')).readFile('utf8');
  const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
  console.log(kb * 1024);
}

/** A real-shaped session of `mb` MiB (copies of corpus sessions) in the temp folder, made once and kept for later runs.
 * */
async function replicatedFile(mb: number): Promise<{ path: string; size: number }> {
  const path = join(tmpdir(), `romp-bench-real-${mb}mb-v${REPLICA_VERSION}.jsonl`);
  if (!existsSync(path) || statSync(path).size < mb * MB) {
    process.stdout.write(`building a ${mb} MiB session from corpus sessions… `);
    const { copies } = await replicateSession(path, mb * MB, 'be0c4a11-0000-4000-8000-000000000001');
    console.log(`done (${copies} copies)`);
  }
  return { path, size: statSync(path).size };
}

/** A transcript over V8's ~512 MB string limit: parsed once in a child process, time and peak memory. */
async function beyondStringLimit(): Promise<void> {
  const { path: huge, size } = await replicatedFile(600);
  const start = process.hrtime.bigint();
  const peak = Number(execFileSync(process.execPath, [HERE, '--peak', huge]).toString().trim());
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  console.log(
    `beyond the string limit: ${(size / MB).toFixed(0)} MB parsed in ${(ms / 1000).toFixed(1)} s (child process, with start-up), peak memory ${(peak / MB).toFixed(0)} MB = ${(peak / size).toFixed(2)}x the file`,
  );
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : name.endsWith('.jsonl') ? [path] : [];
  });
}

/**
 * The other benches by flag, each loaded only when run: a measuring child that loaded them all
 * (playwright-core for `--html`) held 85 MB more resident memory and 30 MB more heap for the collector
 * to mark, which inflated romp's CPU time and peak memory against the floors.
 */
const OTHERS = new Map<string, (arg?: string) => Promise<void>>([
  ['--stream', async () => (await import('./stream.ts')).benchStream()],
  ['--ls', async () => (await import('./ls.ts')).benchLs()],
  ['--watch', async () => (await import('./watch.ts')).benchWatch()],
  ['--usage', async () => (await import('./usage.ts')).benchUsage()],
  ['--html', async () => (await import('./html.ts')).benchHtml()],
  ['--export', async (mb) => (await import('./export.ts')).benchExport(mb === undefined ? undefined : Number(mb))],
  ['--index', async (size) => (await import('./index.ts')).benchIndex(size === '--issue-size')],
  ['--startup', async (n) => (await import('./startup.ts')).benchStartup(n === undefined ? undefined : Number(n))],
]);

async function main(): Promise<void> {
  const flag = process.argv[2] ?? '';
  if (flag === '--peak') return peakChild(process.argv[3] ?? '');
  if (flag === '--measure')
    return measureChild(process.argv[3] as Measure, Number(process.argv[4]), process.argv.slice(5));
  const other = OTHERS.get(flag);
  if (other !== undefined) return other(process.argv[3]);
  if (existsSync(CORPUS)) {
    const files = walk(CORPUS);
    await compare(
      'corpus',
      files,
      files.reduce((n, p) => n + statSync(p).size, 0),
      1.3,
    );
  }
  const { path: big, size } = await replicatedFile(200);
  await compare('real-shaped session', [big], size, 1.0, 3, 2);
  const peak = Number(execFileSync(process.execPath, [HERE, '--peak', big]).toString().trim());
  const baseline = Number(
    execFileSync(process.execPath, [
      '-e',
      "console.log(Number(/VmHWM:\\s+(\\d+)/.exec(require('fs').readFileSync('/proc/self/status','utf8'))[1])*1024)",
    ])
      .toString()
      .trim(),
  );
  console.log(
    `  peak memory ${(peak / MB).toFixed(0)} MB (node alone ${(baseline / MB).toFixed(0)} MB) = ${(peak / size).toFixed(2)}x the file (target <= 1.2x)`,
  );
  if (process.argv[2] === '--parse') return;
  await beyondStringLimit();
  for (const name of ['--stream', '--ls', '--watch', '--usage', '--html', '--export', '--startup'])
    await (OTHERS.get(name) as () => Promise<void>)();
}

await main();
