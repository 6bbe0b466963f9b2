import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { test } from 'node:test';
import { openIndexForWrite } from '../../src/index-db/open-index.ts';
import { refreshIndex } from '../../src/index-db/refresh-index.ts';
import { searchIndex } from '../../src/index-db/search-index.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { T0, user } from '../helpers/transcript.ts';

/** Session a's prompts at 0, 10 ms, 20 ms and 5 s; b's at 15 ms (between a's second and third) and 500 ms. */
const SESSIONS: Record<string, Array<[string, number]>> = {
  a: [
    ['the aardvark', 0],
    ['the badger', 0.01],
    ['the wombat', 0.02],
    ['the dingo', 5],
  ],
  b: [
    ['the quokka', 0.015],
    ['the numbat', 0.5],
  ],
};

/** An index of the sessions, written one file per refresh in `order` (all at once without it). */
async function build(order?: string[]): Promise<ReturnType<typeof openIndexForWrite>> {
  const dir = tempDir('romp-block-ids-');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, '-work-a'), { recursive: true });
  const write = (id: string): void =>
    writeFileSync(
      join(dir, '-work-a', `${id}.jsonl`),
      (SESSIONS[id] as Array<[string, number]>)
        .map(([prompt, sec], i) =>
          JSON.stringify({ ...user(`${id}${i}`, i === 0 ? null : `${id}${i - 1}`, prompt, sec), sessionId: id }),
        )
        .join('\n') + '\n',
    );
  const db = openIndexForWrite(join(tempDir('romp-home-'), 'index.db'), () => assert.fail('new index'));
  for (const group of order === undefined ? [Object.keys(SESSIONS)] : order.map((id) => [id])) {
    for (const id of group) write(id);
    await refreshIndex(db, { projectsDir: dir, workers: 0 });
  }
  return db;
}

/** Each block's id less the first one's unit (100 ms since 2020, + 1), by its session and atom. */
function ids(db: ReturnType<typeof openIndexForWrite>): Record<string, number> {
  const base = (T0 - Date.UTC(2020, 0, 1)) / 100 + 1;
  return Object.fromEntries(
    db
      .all('SELECT session_key, atom_key, id FROM blocks ORDER BY id')
      .map((r) => [r['atom_key'], Number(r['id']) - base]),
  );
}

test('block ids: dense within 100 ms, a block written between two moves the run after it, in any order', async () => {
  // a0 a1 at 0 and 10 ms: one after the other; b0 (15 ms) before a2 (20 ms); b1 at 500 ms, a3 at 5 s: their units
  const want = { a0: 0, a1: 1, b0: 2, a2: 3, b1: 5, a3: 50 };
  for (const order of [['a', 'b'], ['b', 'a'], undefined]) {
    const db = await build(order);
    assert.deepEqual(ids(db), want, `order ${String(order)}`);
    // a2, moved from 2 to 3 when b was written after a: both full-text indexes hold it under its new id
    for (const [q, uuid] of [
      ['wombat', 'a2'],
      ['omba', 'a2'],
      ['quokka', 'b0'],
      ['uokk', 'b0'],
    ] as const)
      assert.deepEqual(
        searchIndex(db, q).map((h) => h.uuid),
        [uuid],
        `${q}, order ${String(order)}`,
      );
    for (const fts of ['blocks_fts', 'blocks_trigram'])
      db.run(`INSERT INTO ${fts}(${fts}, rank) VALUES ('integrity-check', 1)`);
    db.close();
  }
});

/** Writes a session's prompts (`[uuid, text, seconds after T0]`, each the child of the one before) as `<id>.jsonl`. */
function writeSession(dir: string, id: string, prompts: Array<[string, string, number]>): void {
  mkdirSync(join(dir, '-work-a'), { recursive: true });
  writeFileSync(
    join(dir, '-work-a', `${id}.jsonl`),
    prompts
      .map(([uuid, text, sec], i) =>
        JSON.stringify({
          ...user(uuid, i === 0 ? null : (prompts[i - 1] as [string, string, number])[0], text, sec),
          sessionId: id,
        }),
      )
      .join('\n') + '\n',
  );
}

test('block ids: blocks moved before and after their commit, deleted and appended, keep both full-text indexes whole', async () => {
  const dir = tempDir('romp-block-moves-');
  const db = openIndexForWrite(join(tempDir('romp-home-'), 'index.db'), () => assert.fail('new index'));
  const a: Array<[string, string, number]> = [
    ['a0', 'the aardvark', 0],
    ['a1', 'the badger', 0.01],
    ['a2', 'the wombat', 0.02],
    ['a3', 'the dingo', 5],
  ];
  const c: Array<[string, string, number]> = [
    ['c0', 'the platypus', 0.011],
    ['c1', 'the bilby', 0.4],
  ];
  writeSession(dir, 'a', a);
  await refreshIndex(db, { projectsDir: dir, workers: 0 });
  // one transaction (files in the order of their first times: c, then b): c0 moves a2 (committed before) from 2 to
  // 3, then b0 moves it again, to 4, a2 still committed
  writeSession(dir, 'b', [
    ['b0', 'the quokka', 0.015],
    ['b1', 'the numbat', 0.5],
  ]);
  writeSession(dir, 'c', c);
  await refreshIndex(db, { projectsDir: dir, workers: 0 });
  assert.deepEqual(ids(db), { a0: 0, a1: 1, c0: 2, b0: 3, a2: 4, c1: 5, b1: 6, a3: 50 });
  // one transaction (a, c, then A): a, rewritten with a0 and a2 replaced, has its committed rows deleted and a0w and
  // a2w written (pending); c's last turn (c1, committed) is deleted and written again (pending) with c2 appended; A0
  // then moves b0 and b1 (committed) and a2w and c1 (pending). Pending blocks deleted before their commit:
  // search-queue.test.ts
  writeSession(dir, 'A', [['A0', 'the echidna', 0.013]]);
  writeSession(dir, 'a', [
    ['a0w', 'the aardwolf', 0],
    a[1] as [string, string, number],
    ['a2w', 'the koala', 0.02],
    a[3] as [string, string, number],
  ]);
  writeSession(dir, 'c', [...c, ['c2', 'the wallaby', 1]]);
  const report = await refreshIndex(db, { projectsDir: dir, workers: 0 });
  assert.deepEqual([report.added, report.reread, report.appended], [1, 1, 1]);
  const want = { a0w: 0, a1: 1, c0: 2, A0: 3, b0: 4, a2w: 5, c1: 6, b1: 7, c2: 10, a3: 50 };
  assert.deepEqual(ids(db), want);
  const rebuilt = openIndexForWrite(join(tempDir('romp-home-'), 'index.db'), () => assert.fail('new index'));
  await refreshIndex(rebuilt, { projectsDir: dir, workers: 0 });
  assert.deepEqual(ids(rebuilt), want);
  for (const [label, index] of [
    ['refreshed', db],
    ['rebuilt', rebuilt],
  ] as const) {
    for (const fts of ['blocks_fts', 'blocks_trigram'])
      index.run(`INSERT INTO ${fts}(${fts}, rank) VALUES ('integrity-check', 1)`);
    for (const [q, uuids] of [
      ['aardwolf', ['a0w']],
      ['aardvark', []],
      ['rdwol', ['a0w']],
      ['echidna', ['A0']],
      ['quokka', ['b0']],
      ['wombat', []],
      ['koala', ['a2w']],
      ['oal', ['a2w']],
      ['bilby', ['c1']],
      ['numbat', ['b1']],
      ['wallaby', ['c2']],
      ['allab', ['c2']],
      ['dingo', ['a3']],
    ] as const)
      assert.deepEqual(
        searchIndex(index, q).map((h) => h.uuid),
        uuids,
        `${q}, ${label}`,
      );
    index.close();
  }
});

test('a refresh in one thread writes files in the order of their first times, a file with none in its head last', async () => {
  const dir = tempDir('romp-first-times-');
  writeSession(dir, 'a', [['a0', 'the aardvark', 10]]);
  writeSession(dir, 'b', [['b0', 'the badger', 0]]);
  // the first 4 KiB hold no timestamp: a summary line of 5,000 characters first
  writeSession(dir, 'c', [['c0', 'the cassowary', 5]]);
  const c = join(dir, '-work-a', 'c.jsonl');
  writeFileSync(
    c,
    `${JSON.stringify({ type: 'summary', summary: 'x'.repeat(5000), leafUuid: 'c0' })}\n${readFileSync(c, 'utf8')}`,
  );
  writeSession(dir, 'd', [['d0', 'the dingo', 5]]);
  const db = openIndexForWrite(join(tempDir('romp-home-'), 'index.db'), () => assert.fail('new index'));
  const report = await refreshIndex(db, { projectsDir: dir, workers: 0 });
  assert.deepEqual(
    report.read.map((p) => basename(p)),
    ['b.jsonl', 'd.jsonl', 'a.jsonl', 'c.jsonl'],
  );
  db.close();
});
