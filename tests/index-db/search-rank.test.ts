import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { openIndexForWrite } from '../../src/index-db/open-index.ts';
import { refreshIndex } from '../../src/index-db/refresh-index.ts';
import { RANKED_AT_MOST, searchIndex } from '../../src/index-db/search-index.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { assistant, text, toolResult, toolUse, user } from '../helpers/transcript.ts';

type Line = Record<string, unknown>;

/** An index of sessions, each `[project, session id, lines]`. */
async function index(sessions: Array<[string, string, Line[]]>): Promise<ReturnType<typeof openIndexForWrite>> {
  const dir = tempDir('romp-search-rank-');
  for (const [project, id, lines] of sessions) {
    mkdirSync(join(dir, project), { recursive: true });
    writeFileSync(
      join(dir, project, `${id}.jsonl`),
      lines.map((l) => JSON.stringify({ ...l, sessionId: id })).join('\n') + '\n',
    );
  }
  const db = openIndexForWrite(join(tempDir('romp-home-'), 'index.db'), () => assert.fail('new index'));
  await refreshIndex(db, { projectsDir: dir, workers: 0 });
  return db;
}

test('what a person typed ranks first, even below the bm25 of an assistant text', async () => {
  // by bm25 (typed 10 : assistant 5) the short, repeating assistant text scores better than the long prompt: about
  // 8.7 against 7.1; typed text is a tier of its own
  const prompt = `please look at the okapi ${'and then some more words about other things '.repeat(5)}`;
  const db = await index([
    [
      '-work-a',
      's1',
      [
        user('u1', null, prompt, 0),
        assistant('a1', 'u1', text('okapi okapi okapi okapi'), 1, { mid: 'm1', stop: 'end_turn' }),
      ],
    ],
  ]);
  assert.deepEqual(
    searchIndex(db, 'okapi').map((h) => [h.uuid, h.role]),
    [
      ['u1', 'typed'],
      ['a1', 'assistant'],
    ],
  );
  db.close();
});

test('a common word: the filters find a block beyond the last written blocks ranked first', async () => {
  // one tool output in project a, written first; more than RANKED_AT_MOST outputs in project b, written after it
  const calls = (n: number, from: number): Line[] =>
    Array.from({ length: n }, (_, i) => [
      assistant(
        `c${from + i}`,
        i === 0 ? 'q1' : `r${from + i - 1}`,
        toolUse(`t${from + i}`, 'Bash', { command: 'ls' }),
        2 * i + 1,
        {
          mid: `m${from + i}`,
          stop: 'tool_use',
        },
      ),
      user(`r${from + i}`, `c${from + i}`, [toolResult(`t${from + i}`, 'the lemur is here')], 2 * i + 2),
    ]).flat();
  const db = await index([
    ['-work-a', 'a1', [user('q1', null, 'go', 0), ...calls(1, 0)]],
    ['-work-b', 'b1', [user('q1', null, 'go', 0), ...calls(RANKED_AT_MOST + 100, 1)]],
  ]);
  assert.equal(searchIndex(db, 'lemur', { limit: 5 }).length, 5);
  assert.deepEqual(
    searchIndex(db, 'lemur', { projectFolder: '-work-a' }).map((h) => [h.session_id, h.uuid]),
    [['a1', 'r0']],
  );
  db.close();
});

test('a common word ranks its newest blocks by time: the same hits whatever order the files were read in', async () => {
  // six sessions whose prompts say "lemur" at 10, 20, 30, 40, 40 and 50 s (s4 and s5 in the same millisecond): the
  // newest two are s6's and s5's (s5 after s4 by its session key), whichever was written last
  const times = [10, 20, 30, 40, 40, 50];
  const dir = tempDir('romp-search-order-');
  mkdirSync(join(dir, '-work-a'), { recursive: true });
  const write = (k: number): void =>
    writeFileSync(
      join(dir, '-work-a', `s${k + 1}.jsonl`),
      `${JSON.stringify({ ...user(`u${k + 1}`, null, 'the lemur is here', times[k] as number), sessionId: `s${k + 1}` })}\n`,
    );
  const hits = (db: ReturnType<typeof openIndexForWrite>, cap: number): string[] =>
    searchIndex(db, 'lemur', { limit: cap, rankedAtMost: cap }).map((h) => h.session_id);
  // one file at a time, oldest first, then newest first, and the whole folder at once
  const built: Array<[number, number, string[]]> = [];
  for (const order of [
    [0, 1, 2, 3, 4, 5],
    [5, 4, 3, 2, 1, 0],
  ]) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(join(dir, '-work-a'), { recursive: true });
    const db = openIndexForWrite(join(tempDir('romp-home-'), 'index.db'), () => assert.fail('new index'));
    for (const k of order) {
      write(k);
      await refreshIndex(db, { projectsDir: dir, workers: 0 });
    }
    for (const cap of [1, 2, 3]) built.push([order[0] as number, cap, hits(db, cap)]);
    db.close();
  }
  const whole = openIndexForWrite(join(tempDir('romp-home-'), 'index.db'), () => assert.fail('new index'));
  await refreshIndex(whole, { projectsDir: dir, workers: 0 });
  for (const [, cap, h] of built) assert.deepEqual(h, hits(whole, cap), `cap ${cap}`);
  assert.deepEqual(hits(whole, 1), ['s6']);
  assert.deepEqual(hits(whole, 2), ['s6', 's5']);
  assert.deepEqual(hits(whole, 3), ['s6', 's5', 's4']);
  whole.close();
});
