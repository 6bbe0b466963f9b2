/**
 * The usage part of `npm run bench`: `romp usage` against ccusage 20.0.24's native binary (the
 * `@ccusage/ccusage-linux-x64` package, fetched once with `npm pack` into the temp folder and run
 * directly, not through npx) over the same real-shaped projects folder of about 400 MB (160 copies of
 * long corpus sessions, `bench/replicate.ts`): CPU time (user + system) and wall time of each, peak
 * memory, in five alternating rounds of one run (GNU time; at load 8-13 the ratios of three rounds moved by
 * ±15 % from run to run), and whether both found the same token totals.
 * `romp usage` is run as users run it (`dist/src/cli/romp.cjs`, package.json's `bin`), twice a round:
 * reading every file (`--no-index`), and with a fresh index of the folder (`romp index` once, in a home of
 * its own: every file's usage taken from it) and the same output.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LONG_SESSIONS, REPLICA_VERSION, replicateProjects } from './replicate.ts';
import { timed, type Timed } from './timed.ts';

const MB = 1024 * 1024;
const SESSIONS = 160;
const ROUNDS = 5;
const CCUSAGE = '20.0.24';

/** The native ccusage binary for this machine, fetched once; undefined when it cannot be had. */
function ccusageBinary(): string | undefined {
  const dir = join(tmpdir(), `romp-bench-ccusage-${CCUSAGE}`);
  const bin = join(dir, 'package', 'bin', 'ccusage');
  if (existsSync(bin)) return bin;
  if (process.platform !== 'linux' || process.arch !== 'x64') return undefined;
  mkdirSync(dir, { recursive: true });
  const tarball = execFileSync('npm', ['pack', `@ccusage/ccusage-linux-x64@${CCUSAGE}`, '--silent'], { cwd: dir })
    .toString()
    .trim();
  execFileSync('tar', ['xzf', tarball], { cwd: dir });
  if (!existsSync(bin)) return undefined;
  chmodSync(bin, 0o755); // the registry's tarball keeps no mode bits
  return bin;
}

/** The four token sums of both tools' JSON, for a same-totals check. */
function rompTokens(json: string): number[] {
  const t = (JSON.parse(json) as { total: Record<string, number> }).total;
  return [
    t['input_tokens'] ?? 0,
    t['output_tokens'] ?? 0,
    t['cache_creation_input_tokens'] ?? 0,
    t['cache_read_input_tokens'] ?? 0,
  ];
}
function ccusageTokens(json: string): number[] {
  const t = (JSON.parse(json) as { totals: Record<string, number> }).totals;
  return [t['inputTokens'] ?? 0, t['outputTokens'] ?? 0, t['cacheCreationTokens'] ?? 0, t['cacheReadTokens'] ?? 0];
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;

/** Prints both tools' figures, their CPU and wall ratios, the load, and whether the totals agree. */
export async function benchUsage(): Promise<void> {
  const root = join(tmpdir(), `romp-bench-usage-real-v${REPLICA_VERSION}`);
  const projects = join(root, 'projects');
  const { bytes } = await replicateProjects(projects, SESSIONS, 40, LONG_SESSIONS);
  // what users run: package.json's `bin` (the bundle with its code cache), not the unbundled bin.js
  const bin = fileURLToPath(new URL('../src/cli/romp.cjs', import.meta.url));
  const native = ccusageBinary();
  console.log(
    `usage: real-shaped projects folder, ${(bytes / MB).toFixed(0)} MB in ${SESSIONS} sessions; load ${loadavg()[0]?.toFixed(2)}`,
  );
  const home = join(root, 'home');
  rmSync(home, { recursive: true, force: true });
  const build = timed(process.execPath, [bin, 'index', '--projects', projects, '--romp-home', home, '--no-progress'], {
    ...process.env,
  });
  const romp: Timed[] = [];
  const indexed: Timed[] = [];
  const ccusage: Timed[] = [];
  const usage = ['usage', '--projects', projects, '--json'];
  for (let round = 0; round < ROUNDS; round++) {
    const runRomp = (): number => romp.push(timed(process.execPath, [bin, ...usage, '--no-index'], process.env));
    const runIndexed = (): number =>
      indexed.push(timed(process.execPath, [bin, ...usage, '--romp-home', home], process.env));
    const runCcusage = (): number =>
      native === undefined
        ? 0
        : ccusage.push(timed(native, ['session', '--json', '--offline'], { ...process.env, CLAUDE_CONFIG_DIR: root }));
    for (const run of round % 2 === 0 ? [runRomp, runIndexed, runCcusage] : [runCcusage, runIndexed, runRomp]) run();
  }
  rmSync(home, { recursive: true, force: true });
  const line = (name: string, runs: Timed[]): string =>
    `  ${name.padEnd(24)} cpu ${median(runs.map((r) => r.cpu)).toFixed(2)} s, wall ${median(runs.map((r) => r.wall)).toFixed(2)} s, peak ${median(runs.map((r) => r.peakMb)).toFixed(0)} MB`;
  console.log(line('romp usage', romp));
  console.log(
    `${line('romp usage, fresh index', indexed)} (romp index once: wall ${build.wall.toFixed(2)} s); output ${indexed[0]?.stdout === romp[0]?.stdout ? 'the same' : 'DIFFERS'}`,
  );
  if (native === undefined || ccusage[0] === undefined || romp[0] === undefined) {
    console.log(`  ccusage ${CCUSAGE} native: no binary for ${process.platform}-${process.arch}`);
    return;
  }
  console.log(line(`ccusage ${CCUSAGE} native`, ccusage));
  const ratio = (runs: Timed[], f: (r: Timed) => number): string =>
    (median(runs.map(f)) / median(ccusage.map(f))).toFixed(2);
  const cpu = (r: Timed): number => r.cpu;
  const wall = (r: Timed): number => r.wall;
  console.log(
    `  romp/ccusage: cpu ${ratio(romp, cpu)}x, wall ${ratio(romp, wall)}x; with the index cpu ${ratio(indexed, cpu)}x, wall ${ratio(indexed, wall)}x (medians of ${ROUNDS} alternating rounds)`,
  );
  const a = rompTokens(romp[0].stdout);
  const b = ccusageTokens(ccusage[0].stdout);
  console.log(
    `  token totals (input, output, cache write, cache read): ${a.every((v, i) => v === b[i]) ? 'equal' : `differ: romp ${a.join(', ')} / ccusage ${b.join(', ')}`}`,
  );
}
