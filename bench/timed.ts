/**
 * A command's CPU time (user + system, s), wall time (s), peak resident memory (MB) and output, by GNU time
 * (`/usr/bin/time -f`): what the benches compare processes by.
 */
import { spawnSync } from 'node:child_process';

/** One timed run. */
export interface Timed {
  cpu: number;
  wall: number;
  peakMb: number;
  stdout: string;
}

/**
 * Runs a command under GNU time.
 * @param command the program
 * @param args its arguments
 * @param env its environment
 * @returns its times, peak memory and standard output
 * @throws when it exits with another status than 0
 */
export function timed(command: string, args: string[], env: NodeJS.ProcessEnv): Timed {
  const run = spawnSync('/usr/bin/time', ['-f', '%U %S %e %M', command, ...args], { env, maxBuffer: 1 << 28 });
  if (run.status !== 0)
    throw new Error(`${command} exited ${String(run.status)}: ${run.stderr.toString().slice(-300)}`);
  const [user, system, wall, kb] = (run.stderr.toString().trim().split('\n').at(-1) ?? '').split(' ').map(Number);
  return {
    cpu: (user ?? 0) + (system ?? 0),
    wall: wall ?? Number.NaN,
    peakMb: (kb ?? 0) / 1024,
    stdout: run.stdout.toString(),
  };
}
