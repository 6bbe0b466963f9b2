import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { test } from 'node:test';
import { openIndexForWrite } from '../../src/index-db/open-index.ts';
import { refreshIndex, type RefreshReport, type WatcherCache } from '../../src/index-db/refresh-index.ts';
import { corpusTranscripts } from '../helpers/corpus.ts';
import { indexTables } from '../helpers/index-dump.ts';
import { restartOffsets } from '../helpers/restart-offsets.ts';
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
    let tails = 0;
    /** The size each file's watcher read it to: an append read from its last turn on leaves its watcher behind. */
    const readTo = new Map<string, number>();
    for (let step = 0; step < 4; step++) {
      const offsets = step === 0 ? new Map<string, number>() : restartOffsets(kept);
      const watched = new Set(watchers.keys());
      for (const p of parts) {
        const bytes = p.steps[step] as string;
        if (step === 0) writeFileSync(p.path, bytes);
        else appendFileSync(p.path, bytes);
      }
      const report = await refresh(kept, projects, watchers);
      await refresh(anew, projects);
      // with kept watchers, a file that grew is read from its last turn on (from its restart's offset), else by its
      // watcher from where that stopped (behind when appends were read from the last turn on)
      const whole = new Set(report.readWhole.map((r) => r.path));
      const expected = parts.reduce((n, p) => {
        const added = Buffer.byteLength(p.steps[step] as string);
        const size = statSync(p.path).size;
        if (step === 0 || added === 0) return n + (step === 0 ? size : 0);
        if (!whole.has(p.path)) return n + size - (offsets.get(p.path) as number);
        return n + size - (watched.has(p.path) ? (readTo.get(p.path) as number) : 0);
      }, 0);
      assert.equal(report.bytesRead, expected, `step ${step}: the bytes read`);
      for (const path of report.read) if (step === 0 || whole.has(path)) readTo.set(path, statSync(path).size);
      tails += report.fromLastTurn;
      const fresh = indexTables(await freshBuild(projects), ['the', 'error']);
      for (const [name, index] of [
        ['kept watchers', kept],
        ['new process', anew],
      ] as const) {
        const got = indexTables(index, ['the', 'error']);
        for (const [table, rows] of fresh) assert.equal(got.get(table), rows, `${name}, step ${step}: ${table}`);
      }
    }
    assert.ok(tails > 0, 'some appends were read from their last turn on');
  },
);

async function freshBuild(projects: string): Promise<string> {
  const path = join(tempDir('romp-append-eq-fresh-'), 'index.db');
  await refresh(path, projects);
  return path;
}

test('a file indexed by another process, then appended twice with kept watchers, keeps one row per usage fact', async () => {
  const dir = tempDir('romp-append-keys-');
  const projects = join(dir, 'projects');
  mkdirSync(join(projects, '-work-demo'), { recursive: true });
  const path = join(projects, '-work-demo', 's1.jsonl');
  const line = (r: object): string => `${JSON.stringify({ sessionId: 's1', cwd: '/work/demo', ...r })}\n`;
  const reply = (uuid: string, parent: string, sec: number, mid: string, stop: string | null): string =>
    line({
      type: 'assistant',
      uuid,
      parentUuid: parent,
      timestamp: `2026-03-01T10:00:${String(sec).padStart(2, '0')}.000Z`,
      requestId: `req_${mid}`,
      message: {
        id: mid,
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-4-5',
        content: [{ type: 'text', text: `reply ${uuid}` }],
        stop_reason: stop,
        usage: { input_tokens: 10, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 100 },
      },
    });
  const prompt = (uuid: string, parent: string | null, sec: number): string =>
    line({
      type: 'user',
      uuid,
      parentUuid: parent,
      timestamp: `2026-03-01T10:00:${String(sec).padStart(2, '0')}.000Z`,
      message: { role: 'user', content: `prompt ${uuid}` },
    });
  writeFileSync(path, prompt('u1', null, 0) + reply('a1', 'u1', 1, 'm1', null));
  const index = join(dir, 'index.db');
  await refresh(index, projects); // another process: nothing of it kept
  const watchers: WatcherCache = new Map();
  // the same response goes on over two appends: its turn, and its usage fact, change each time
  appendFileSync(path, reply('a2', 'a1', 2, 'm1', null));
  await refresh(index, projects, watchers);
  appendFileSync(path, reply('a3', 'a2', 3, 'm1', 'end_turn'));
  await refresh(index, projects, watchers);
  const fresh = indexTables(await freshBuild(projects));
  assert.equal(indexTables(index).get('usage_facts'), fresh.get('usage_facts'));
  assert.equal(JSON.parse(fresh.get('usage_facts') as string).length, 1);
});
