import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
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
