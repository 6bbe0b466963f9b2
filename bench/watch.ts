/**
 * The live part of `npm run bench`: one line appended to real-shaped sessions of 1, 10 and 100 MB
 * (copies of corpus sessions, `bench/replicate.ts`), then
 * `SessionWatcher.update()`; the median time per update must stay flat (target: 100 MB within 2x of
 * 1 MB, and under 5 ms).
 */
import { appendFileSync, existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SessionWatcher } from '../src/live/session-watcher.ts';
import { REPLICA_VERSION, replicateSession } from './replicate.ts';

const MB = 1024 * 1024;

function lastUuid(path: string): string {
  const size = statSync(path).size;
  const tail = readFileSync(path).subarray(Math.max(0, size - 200_000)).toString('utf8').trim().split('\n');
  for (let i = tail.length - 1; i >= 0; i--) {
    const match = /"uuid":"([^"]+)"/.exec(tail[i] ?? '');
    if (match !== null && !(tail[i] ?? '').includes('"isSidechain":true')) return match[1] as string;
  }
  throw new Error('no uuid');
}

async function medianUpdate(mb: number, appends = 25): Promise<number> {
  const path = join(tmpdir(), `romp-bench-live-${mb}mb-${process.pid}.jsonl`);
  const source = join(tmpdir(), `romp-bench-live-real-${mb}mb-v${REPLICA_VERSION}.jsonl`);
  if (!existsSync(source)) await replicateSession(source, mb * MB, 'be0c4a11-0000-4000-8000-000000000002');
  appendFileSync(path, readFileSync(source));
  const watcher = new SessionWatcher([path]);
  try {
    return await timeAppends(watcher, path, mb, appends);
  } finally {
    rmSync(path, { force: true }); // the copy grows with every run: never leave it behind
  }
}

async function timeAppends(watcher: SessionWatcher, path: string, mb: number, appends: number): Promise<number> {
  await watcher.update();
  let parent = lastUuid(path);
  const times: number[] = [];
  for (let i = 0; i < appends; i++) {
    const uuid = `live-${mb}-${i}`;
    appendFileSync(path, `${JSON.stringify({ parentUuid: parent, isSidechain: false, type: 'user', uuid, timestamp: new Date(Date.UTC(2030, 0, 1, 0, 0, i)).toISOString(), message: { role: 'user', content: `live ${i}` }, promptSource: 'typed' })}\n`);
    const start = process.hrtime.bigint();
    await watcher.update();
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
    parent = uuid;
  }
  return times.sort((a, b) => a - b)[times.length >> 1] ?? 0;
}

/** Prints the three medians and their ratio. */
export async function benchWatch(): Promise<void> {
  const [one, ten, hundred] = [await medianUpdate(1), await medianUpdate(10), await medianUpdate(100)];
  console.log(`watch: one appended line, median update: 1 MB ${one.toFixed(2)} ms, 10 MB ${ten.toFixed(2)} ms, 100 MB ${hundred.toFixed(2)} ms = ${(hundred / one).toFixed(2)}x (target <= 2x, < 5 ms)`);
}
