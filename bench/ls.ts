/**
 * The discovery part of `npm run bench`: `romp ls` (`listClaudeSessions`) over a real-shaped projects
 * folder of 3,000 sessions in 50 projects, copies of the corpus's sessions of up to 300 KB
 * (`bench/replicate.ts`), without the index (every file read) and with a fresh index (a stamp per file,
 * one query), against the head-and-tail floor: the same walk of the folder (`discoverTranscripts`),
 * then per session file an open, 8 KiB read from its start and 8 KiB from its end, a close, with system
 * calls on this thread as `romp ls` makes them (`readWholeSync`). Beside it, two more baselines: every byte
 * of each file read the same way (what `romp ls` must read to count prompts and lines), and the head and
 * tail read through `fs/promises`, 32 files at once (the floor of the bench before 2026-12: its CPU time is
 * 4-6x the synchronous reads', the thread pool's and the promises'). CPU time (`process.cpuUsage`) and wall
 * time, medians of rounds in alternating order, with the load average.
 */
import { closeSync, existsSync, fstatSync, openSync, readSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPLICA_VERSION, replicateProjects, smallSessions } from './replicate.ts';
import { discoverTranscripts } from '../src/discover/discover-transcripts.ts';
import { listClaudeSessions } from '../src/discover/list-claude-sessions.ts';
import { storedListings } from '../src/index-db/listings.ts';
import { openIndexForRead, openIndexForWrite } from '../src/index-db/open-index.ts';
import { refreshIndex } from '../src/index-db/refresh-index.ts';

const EDGE = 8 * 1024;
const PART = 64 * 1024;

/** The files `romp ls` lists and reads (sessions, flat agents). */
async function listed(root: string): Promise<string[]> {
  const { files } = await discoverTranscripts(root);
  return files.filter((f) => f.parts.length === 1).map((f) => f.path);
}

const head = Buffer.allocUnsafe(EDGE);
const tail = Buffer.allocUnsafe(EDGE);
const part = Buffer.allocUnsafe(PART);

/** Walks, then opens each file `romp ls` lists, `fstat`s it, hands it to `read` and closes it: system calls on this
 * thread, as `readWholeSync` makes them. Gives the sum of what `read` gave. */
async function eachFile(root: string, read: (fd: number, size: number) => number): Promise<number> {
  let sum = 0;
  for (const path of await listed(root)) {
    const fd = openSync(path, 'r');
    try {
      sum += read(fd, fstatSync(fd).size);
    } finally {
      closeSync(fd);
    }
  }
  return sum;
}

/** The floor: walk, then read a head and a tail of each file `romp ls` lists. */
function floor(root: string): Promise<number> {
  return eachFile(root, (fd, size) => {
    readSync(fd, head, 0, EDGE, 0);
    if (size > EDGE) readSync(fd, tail, 0, EDGE, Math.max(0, size - EDGE));
    return 1;
  });
}

/** Walk, then read every byte of each file, in 64 KiB parts into one buffer (as `readWholeSync` reads). */
function whole(root: string): Promise<number> {
  return eachFile(root, (fd, size) => {
    let bytes = 0;
    for (let got = -1; bytes < size && got !== 0; bytes += got) got = readSync(fd, part, 0, PART, bytes);
    return bytes;
  });
}

/** The head and tail read through `fs/promises`, as many files at once as `listClaudeSessions` fills. */
async function floorAsync(root: string): Promise<number> {
  let n = 0;
  const one = async (path: string): Promise<void> => {
    const handle = await open(path, 'r');
    try {
      const { size } = await handle.stat();
      await handle.read(head, 0, EDGE, 0);
      if (size > EDGE) await handle.read(tail, 0, EDGE, Math.max(0, size - EDGE));
      n++;
    } finally {
      await handle.close();
    }
  };
  const paths = await listed(root);
  for (let i = 0; i < paths.length; i += 32) await Promise.all(paths.slice(i, i + 32).map(one));
  return n;
}

async function withIndex(root: string, indexFile: string): Promise<number> {
  const db = openIndexForRead(indexFile);
  if (typeof db === 'string') throw new Error(db);
  try {
    return (await listClaudeSessions({ projectsDir: root, stored: storedListings(db) })).length;
  } finally {
    db.close();
  }
}

interface Sample {
  cpu: number;
  wall: number;
}

async function timed(work: () => Promise<unknown>): Promise<Sample> {
  const cpu = process.cpuUsage();
  const start = performance.now();
  await work();
  const used = process.cpuUsage(cpu);
  return { cpu: (used.user + used.system) / 1000, wall: performance.now() - start };
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

/** Builds the folder and its index once (kept in the temp folder), then times floor, ls, ls with the index. */
export async function benchLs(sessions = 3000, rounds = 7): Promise<void> {
  const base = join(tmpdir(), `romp-bench-projects-real-${sessions}-v${REPLICA_VERSION}`);
  await replicateProjects(base, sessions, 50, smallSessions(300_000));
  const indexFile = join(`${base}-home`, 'index.db');
  const fresh = !existsSync(indexFile);
  const db = openIndexForWrite(indexFile, () => undefined);
  const build = await timed(() => refreshIndex(db, { projectsDir: base }));
  db.close();
  console.log(
    `ls: index ${fresh ? 'built' : 'refreshed'} in ${(build.wall / 1000).toFixed(1)} s (once; kept in ${indexFile})`,
  );
  const [read, indexed] = [
    await listClaudeSessions({ projectsDir: base }),
    await (async () => {
      const ro = openIndexForRead(indexFile);
      if (typeof ro === 'string') throw new Error(ro);
      const list = await listClaudeSessions({ projectsDir: base, stored: storedListings(ro) });
      ro.close();
      return list;
    })(),
  ];
  if (JSON.stringify(read) !== JSON.stringify(indexed)) throw new Error('ls with the index lists other sessions');
  const measures = {
    floor: () => floor(base),
    whole: () => whole(base),
    async: () => floorAsync(base),
    read: () => listClaudeSessions({ projectsDir: base }),
    index: () => withIndex(base, indexFile),
  } as const;
  const names = Object.keys(measures) as Array<keyof typeof measures>;
  const samples = new Map(names.map((n) => [n, [] as Sample[]]));
  for (let r = 0; r < rounds; r++)
    for (const n of r % 2 === 0 ? names : [...names].reverse()) samples.get(n)?.push(await timed(measures[n]));
  const cpu = (n: keyof typeof measures): number => median((samples.get(n) ?? []).map((s) => s.cpu));
  const wall = (n: keyof typeof measures): number => median((samples.get(n) ?? []).map((s) => s.wall));
  const subagents = read.reduce((n, s) => n + s.subagents.length, 0);
  console.log(
    `ls: ${read.length} sessions (${subagents} subagent files attached); medians of ${rounds} rounds; load ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  const times = (n: keyof typeof measures, f: typeof cpu, unit: string): string =>
    `${f(n).toFixed(0).padStart(6)} ms (${(f(n) / f('floor')).toFixed(2)}× floor, ${(f(n) / f('whole')).toFixed(2)}× ${unit})`;
  for (const n of names) console.log(`  ${n.padEnd(6)} cpu ${times(n, cpu, 'whole')}  wall ${times(n, wall, 'whole')}`);
  console.log(
    '  target: ls over 3,000 sessions ≤ 1.5× the head-and-tail floor (CPU); whole: every byte read as ls reads it',
  );
}
