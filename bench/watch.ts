/**
 * The live part of `npm run bench` (`-- --watch` alone): real lines appended one at a time to
 * real-shaped sessions of 1, 10 and 100 MB (copies of corpus sessions, `bench/replicate.ts`), each
 * followed by `SessionWatcher.update()`. The lines are every line of a real corpus file, in its order
 * (a fresh copy hung on the session's leaf): prompts, responses, tool results of parallel calls,
 * progress rows, `stop_hook_summary` and `turn_duration` rows, queue operations, metadata. Prints the
 * time per update (p50 / p90 / p99 / max) and how many updates resolved the whole session again.
 * Target: p99 under 5 ms, and 100 MB within 2x of 1 MB.
 */
import { appendFileSync, closeSync, copyFileSync, existsSync, openSync, readSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';
import { SessionWatcher } from '../src/live/session-watcher.ts';
import { CORPUS, continuation, REPLICA_VERSION, replicateSession } from './replicate.ts';

const MB = 1024 * 1024;
const SESSION_ID = 'be0c4a11-0000-4000-8000-000000000002';

/** The real files whose lines are appended: progress rows, hook summaries, turn durations, queue operations (2.1.12,
 * 2.1.29). */
const APPENDED = ['entireio__cli/d5/99f72ee73a/0/full.jsonl', 'entireio__cli/26/dcd5518fea/0/full.jsonl'];

/** The last main-chain uuid and the last time in a session file's tail (its last 400 KB, read alone). */
function tailOf(path: string): { leaf: string; clock: number } {
  const size = statSync(path).size;
  const bytes = Buffer.alloc(Math.min(size, 400_000));
  const fd = openSync(path, 'r');
  try {
    readSync(fd, bytes, 0, bytes.length, size - bytes.length);
  } finally {
    closeSync(fd);
  }
  const tail = bytes.toString('utf8').trim().split('\n');
  let leaf: string | undefined;
  let clock = 0;
  for (let i = tail.length - 1; i >= 0; i--) {
    const line = tail[i] ?? '';
    const time = /"timestamp":"([^"]+)"/.exec(line);
    if (time !== null) clock = Math.max(clock, Date.parse(time[1] as string));
    const match = /"uuid":"([^"]+)"/.exec(line);
    if (
      leaf === undefined &&
      match !== null &&
      !line.includes('"isSidechain":true') &&
      !line.includes('"type":"progress"')
    )
      leaf = match[1] as string;
  }
  if (leaf === undefined) throw new Error('no uuid');
  return { leaf, clock };
}

/** One measured append: its wall and CPU time, the line's type, what the builder did, GC time in it. */
interface Sample {
  ms: number;
  cpu: number;
  gc: number;
  type: string;
  resolution: string;
  bytes: number;
  /** Atoms of the last turn after the update. */
  atoms: number;
}

interface Figures {
  samples: Sample[];
  full: number;
}

/** GC pauses (ms) so far, as `PerformanceObserver` reports them. */
let gcMs = 0;

async function appendAll(mb: number, source: string): Promise<Figures> {
  const path = join(tmpdir(), `romp-bench-live-${mb}mb-${process.pid}.jsonl`);
  const real = join(tmpdir(), `romp-bench-live-real-${mb}mb-v${REPLICA_VERSION}.jsonl`);
  if (!existsSync(real)) await replicateSession(real, mb * MB, SESSION_ID);
  copyFileSync(real, path); // no 100 MB buffer left for a measured update's GC to collect
  try {
    const watcher = new SessionWatcher([path]);
    await watcher.update();
    const { leaf, clock } = tailOf(path);
    const lines = continuation(join(CORPUS, source), 7919, leaf, clock, SESSION_ID);
    const before = watcher.fullResolves;
    const samples: Sample[] = [];
    // each line's type, read before the measured appends (their garbage collected with the setup's)
    const types = lines.map((line) => {
      const { type, subtype } = JSON.parse(line) as { type?: unknown; subtype?: unknown };
      return typeof subtype === 'string' ? `${String(type)}/${subtype}` : String(type);
    });
    globalThis.gc?.(); // the first read's garbage is collected now, not in the first appends
    await new Promise((resolve) => setImmediate(resolve)); // and reported now
    for (const line of lines) {
      appendFileSync(path, `${line}\n`);
      const gcBefore = gcMs;
      const cpu = process.cpuUsage();
      const start = process.hrtime.bigint();
      const update = await watcher.update();
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      const used = process.cpuUsage(cpu);
      samples.push({
        ms,
        cpu: (used.user + used.system) / 1000,
        gc: gcMs - gcBefore,
        type: types[samples.length] as string,
        resolution: update.resolution,
        bytes: Buffer.byteLength(line),
        atoms: update.session.turns.at(-1)?.atoms.length ?? 0,
      });
    }
    return { samples, full: watcher.fullResolves - before };
  } finally {
    rmSync(path, { force: true }); // the copy grows with every run: never leave it behind
  }
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
}

/** The slowest 1 % of the appends: what each line was, what the builder did, how much was CPU and GC. */
function slowest(samples: Sample[]): string[] {
  const slow = [...samples].sort((a, b) => b.ms - a.ms).slice(0, Math.ceil(samples.length / 100));
  return slow.map(
    (s) =>
      `  ${s.ms.toFixed(2)} ms (cpu ${s.cpu.toFixed(2)}, gc ${s.gc.toFixed(2)}): ${s.type}, ${s.bytes} B, ${s.resolution}, open turn ${s.atoms} atoms`,
  );
}

/**
 * Prints the figures of each size, the slowest 1 % of its appends, and the ratio of the p99s. A warm-up
 * round (both files' lines on the 1 MB session) runs first, unmeasured: else the first size measures the
 * JIT compiling the open-turn path.
 */
export async function benchWatch(): Promise<void> {
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) gcMs += entry.duration;
  }).observe({ entryTypes: ['gc'] });
  for (const source of APPENDED) await appendAll(1, source);
  const p99s: number[] = [];
  for (const mb of [1, 10, 100]) {
    const all: Figures = { samples: [], full: 0 };
    for (const source of APPENDED) {
      const figures = await appendAll(mb, source);
      all.samples.push(...figures.samples);
      all.full += figures.full;
    }
    const sorted = all.samples.map((s) => s.ms).sort((a, b) => a - b);
    const cpu = all.samples.map((s) => s.cpu).sort((a, b) => a - b);
    const [p50, p90, p99, max] = [
      quantile(sorted, 0.5),
      quantile(sorted, 0.9),
      quantile(sorted, 0.99),
      sorted.at(-1) ?? 0,
    ];
    p99s.push(p99);
    console.log(
      `watch ${String(mb).padStart(3)} MB: ${sorted.length} real lines appended, per update p50 ${p50.toFixed(2)} / p90 ${p90.toFixed(2)} / p99 ${p99.toFixed(2)} / max ${max.toFixed(2)} ms (CPU p99 ${quantile(cpu, 0.99).toFixed(2)} / max ${(cpu.at(-1) ?? 0).toFixed(2)} ms); ${all.full} full re-resolves`,
    );
    for (const line of slowest(all.samples)) console.log(line);
  }
  const ratio = (p99s[2] ?? 0) / (p99s[0] || 1);
  console.log(
    `watch: p99 100 MB / 1 MB = ${ratio.toFixed(2)}x (target <= 2x, p99 < 5 ms); load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
}
