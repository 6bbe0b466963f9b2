/**
 * The usage part of `npm run bench`: `romp usage` and ccusage (`npx ccusage@20.0.24 session --json
 * --offline`, `CLAUDE_CONFIG_DIR` pointed at the folder) over the same real-shaped projects folder of
 * about 400 MB (160 copies of long corpus sessions, `bench/replicate.ts`), wall time and peak memory of
 * each, in the same run (GNU time).
 */
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LONG_SESSIONS, REPLICA_VERSION, replicateProjects } from './replicate.ts';

const MB = 1024 * 1024;

const SESSIONS = 160;

function timed(command: string, args: string[], env: NodeJS.ProcessEnv): { seconds: number; peakMb: number } {
  const run = spawnSync('/usr/bin/time', ['-f', '%e %M', command, ...args], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  if (run.status !== 0) throw new Error(`${command} exited ${String(run.status)}: ${run.stderr.toString().slice(-300)}`);
  const out = run.stderr.toString().trim().split('\n').at(-1) ?? '';
  const [seconds, kb] = out.split(' ').map(Number);
  return { seconds: seconds ?? Number.NaN, peakMb: (kb ?? 0) / 1024 };
}

/** Prints both tools' figures, and their ratio. */
export async function benchUsage(): Promise<void> {
  const root = join(tmpdir(), `romp-bench-usage-real-v${REPLICA_VERSION}`);
  const { bytes } = await replicateProjects(join(root, 'projects'), SESSIONS, 40, LONG_SESSIONS);
  const bin = fileURLToPath(new URL('../src/cli/bin.js', import.meta.url));
  const romp = timed(process.execPath, [bin, 'usage', '--projects', join(root, 'projects'), '--json'], process.env);
  console.log(`usage: real-shaped projects folder, ${(bytes / MB).toFixed(0)} MB in ${SESSIONS} sessions`);
  console.log(`  romp usage     ${romp.seconds.toFixed(1)} s, peak ${romp.peakMb.toFixed(0)} MB`);
  try {
    const ccusage = timed('npx', ['--yes', 'ccusage@20.0.24', 'session', '--json', '--offline'], { ...process.env, CLAUDE_CONFIG_DIR: root });
    console.log(`  ccusage 20.0.24 ${ccusage.seconds.toFixed(1)} s, peak ${ccusage.peakMb.toFixed(0)} MB  (romp/ccusage time ${(romp.seconds / ccusage.seconds).toFixed(2)}x)`);
  } catch (error) {
    console.log(`  ccusage could not run here: ${(error as Error).message.split('\n')[0]}`);
  }
}
