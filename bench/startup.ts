/**
 * `npm run bench -- --startup [ROUNDS]`: what `romp show examples/session.jsonl` costs over starting Node
 * at all (`node -e 0`), in CPU time (user + system, the whole process from its start: `process.cpuUsage()`
 * read at its `exit`, through a preloaded CommonJS module given to both commands alike: `--import` would start
 * the ES module loader, which the `romp` bin, dist/src/cli/romp.cjs, does not). The two run in
 * alternating rounds (default 15), so a change in the machine's load hits both; the medians, their
 * difference (target <= 40 ms) and ratio are printed, with the load average.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Runs the two commands in alternating rounds and prints their median CPU time. */
export function benchStartup(rounds = 15): void {
  const dir = mkdtempSync(join(tmpdir(), 'romp-bench-startup-'));
  try {
    const out = join(dir, 'cpu');
    const preload = join(dir, 'cpu.cjs');
    writeFileSync(
      preload,
      `const { writeFileSync } = require('node:fs');\nprocess.on('exit', () => { const u = process.cpuUsage(); writeFileSync(${JSON.stringify(out)}, String((u.user + u.system) / 1000)); });\n`,
    );
    const cpu = (args: string[]): number => {
      execFileSync(process.execPath, ['--require', preload, ...args], {
        cwd: ROOT,
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      return Number(readFileSync(out, 'utf8'));
    };
    const node: number[] = [];
    const romp: number[] = [];
    const load = loadavg()[0] ?? 0;
    for (let i = 0; i < rounds; i++) {
      node.push(cpu(['-e', '0']));
      romp.push(cpu([join(ROOT, 'dist/src/cli/romp.cjs'), 'show', join(ROOT, 'examples/session.jsonl')]));
    }
    const a = median(node);
    const b = median(romp);
    console.log(
      `startup: romp show examples/session.jsonl ${b.toFixed(0)} ms CPU, node -e 0 ${a.toFixed(0)} ms: +${(b - a).toFixed(0)} ms (target <= 40), ${(b / a).toFixed(2)}x; median of ${rounds} alternating rounds, load ${load.toFixed(1)}–${(loadavg()[0] ?? 0).toFixed(1)}`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? (sorted[mid] ?? NaN) : ((sorted[mid - 1] ?? NaN) + (sorted[mid] ?? NaN)) / 2;
}
