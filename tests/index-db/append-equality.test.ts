import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { test } from 'node:test';
import { openIndexForWrite } from '../../src/index-db/open-index.ts';
import { refreshIndex, type RefreshReport, type WatcherCache } from '../../src/index-db/refresh-index.ts';
import { corpusTranscripts } from '../helpers/corpus.ts';
import { indexTables } from '../helpers/index-dump.ts';
import { tempDir } from '../helpers/temp-dir.ts';

/** A small PRNG (mulberry32): the same cuts at every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The corpus's main transcripts under 400 KB (subagent files are sessions of their own, linked by path: left out). */
const files = corpusTranscripts().filter(
  (f) => !f.includes('/subagents/') && !basename(f).startsWith('agent-') && statSync(f).size < 400_000,
);

async function refresh(path: string, projectsDir: string, watchers?: WatcherCache): Promise<RefreshReport> {
  const db = openIndexForWrite(path, () => assert.fail('the index is sound'));
  try {
    return await refreshIndex(db, { projectsDir, workers: 0, ...(watchers === undefined ? {} : { watchers }) });
  } finally {
    db.close();
  }
}

test(
  'appends in steps at random lines, with kept watchers or in a new process, give the rows of a fresh build',
  { skip: files.length === 0 ? 'no corpus' : false },
  async () => {
    const next = random(17);
    const dir = tempDir('romp-append-eq-');
    const projects = join(dir, 'projects');
    // each file's lines, cut at three random lines into four parts
    const parts = files.map((f, i) => {
      const lines = readFileSync(f, 'utf8').split(/(?<=\n)/);
      const cuts = [0, ...[next(), next(), next()].map((x) => Math.floor(x * lines.length)).sort((a, b) => a - b)];
      const path = join(projects, `-corpus-${i}`, basename(f));
      mkdirSync(join(projects, `-corpus-${i}`), { recursive: true });
      return {
        path,
        steps: cuts.map((c, k) => lines.slice(c, cuts[k + 1] ?? lines.length).join('')),
      };
    });
    const kept = join(dir, 'kept', 'index.db');
    const anew = join(dir, 'new', 'index.db');
    const watchers: WatcherCache = new Map();
    for (let step = 0; step < 4; step++) {
      let appended = 0;
      for (const p of parts) {
        const bytes = p.steps[step] as string;
        if (step === 0) writeFileSync(p.path, bytes);
        else appendFileSync(p.path, bytes);
        appended += Buffer.byteLength(bytes);
      }
      const report = await refresh(kept, projects, watchers);
      await refresh(anew, projects);
      // with kept watchers, a file that grew is read from where it stopped: only the bytes appended
      if (step > 0) assert.equal(report.bytesRead, appended);
      const fresh = indexTables(await freshBuild(projects), ['the', 'error']);
      for (const [name, index] of [
        ['kept watchers', kept],
        ['new process', anew],
      ] as const) {
        const got = indexTables(index, ['the', 'error']);
        for (const [table, rows] of fresh) assert.equal(got.get(table), rows, `${name}, step ${step}: ${table}`);
      }
    }
  },
);

async function freshBuild(projects: string): Promise<string> {
  const path = join(tempDir('romp-append-eq-fresh-'), 'index.db');
  await refresh(path, projects);
  return path;
}
