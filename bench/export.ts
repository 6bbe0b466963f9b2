/**
 * The export part of `npm run bench -- --export [SESSIONS]`: `romp export --format parquet` and
 * `--format ndjson` over a real-shaped projects folder (default 5,000 sessions in 50 projects, copies
 * of the corpus's sessions of up to 300 KB, `bench/replicate.ts`), each in a child process into a fresh
 * lake: rows/s, transcript MB/s (wall and CPU), and the lake's size as a share of the transcripts' bytes.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { REPLICA_VERSION, replicateProjects, smallSessions } from './replicate.ts';

const MB = 1024 * 1024;

/** Builds the folder once (kept in the temp folder) and times one export of it per format. */
export async function benchExport(sessions = 5000): Promise<void> {
  const root = join(tmpdir(), `romp-bench-projects-real-${sessions}-v${REPLICA_VERSION}`);
  const { bytes } = await replicateProjects(root, sessions, 50, smallSessions(300_000));
  const bin = fileURLToPath(new URL('../src/cli/bin.js', import.meta.url));
  console.log(
    `export: real-shaped projects folder, ${sessions} sessions, ${(bytes / MB).toFixed(0)} MB (load ${loadavg()[0]?.toFixed(2)})`,
  );
  for (const format of ['parquet', 'ndjson']) {
    const lake = mkdtempSync(join(tmpdir(), 'romp-bench-lake-'));
    try {
      const run = spawnSync(
        '/usr/bin/time',
        [
          '-f',
          '%e %U %S %M',
          process.execPath,
          bin,
          'export',
          '--format',
          format,
          '--out',
          lake,
          '--projects',
          root,
          '--machine',
          'bench',
          '--json',
        ],
        { encoding: 'utf8', maxBuffer: 64 * MB },
      );
      if (run.status !== 0)
        throw new Error(`romp export --format ${format} exited ${String(run.status)}: ${run.stderr.slice(-300)}`);
      const [wall, user, system, kb] = (run.stderr.trim().split('\n').at(-1) ?? '').split(' ').map(Number) as [
        number,
        number,
        number,
        number,
      ];
      const report = JSON.parse(run.stdout) as {
        sessions: number;
        parts: number;
        bytes: number;
        rows: Record<string, number>;
      };
      const rows = Object.values(report.rows).reduce((a, b) => a + b, 0);
      const cpu = user + system;
      console.log(
        `  ${format.padEnd(7)} ${rows} rows in ${report.parts} parts: ${wall.toFixed(1)} s wall (${(rows / wall).toFixed(0)} rows/s, ${(bytes / MB / wall).toFixed(1)} MB/s), ` +
          `${cpu.toFixed(1)} s CPU (${(bytes / MB / cpu).toFixed(1)} MB/s), peak ${(kb / 1024).toFixed(0)} MB; lake ${(report.bytes / MB).toFixed(1)} MB = ${((100 * report.bytes) / bytes).toFixed(1)} % of the transcripts`,
      );
    } finally {
      rmSync(lake, { recursive: true, force: true });
    }
  }
}
