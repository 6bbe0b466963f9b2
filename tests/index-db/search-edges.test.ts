import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { openIndexForWrite } from '../../src/index-db/open-index.ts';
import { refreshIndex } from '../../src/index-db/refresh-index.ts';
import { around, searchIndex } from '../../src/index-db/search-index.ts';
import { markMatches } from '../../src/text/match-marks.ts';
import { runCli } from '../helpers/run-cli.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { assistant, text, toolResult, toolUse, user } from '../helpers/transcript.ts';
import { TRIGRAM_TOOL_INPUT_CHARS } from '../../src/index-db/schema.ts';

/** A hit's snippet with `«` and `»` around its matches. */
const marked = (h: { snippet: string; matches: Array<[number, number]> }): string =>
  markMatches({ text: h.snippet, matches: h.matches }, '«', '»');

/** One session: a Turkish prompt (`İ` lowercases to two code units), Japanese text, a two-letter word inside words. */
async function indexed(): Promise<{ db: ReturnType<typeof openIndexForWrite>; dir: string; home: string }> {
  const dir = tempDir('romp-search-edges-');
  mkdirSync(join(dir, '-work-demo'), { recursive: true });
  const lines = [
    user('u1', null, 'İİİİ İstanbul deploy fails', 0),
    assistant('a1', 'u1', text('日本語 のテスト is in nodejs land'), 1, { mid: 'm1', stop: 'end_turn' }),
  ].map((l) => JSON.stringify({ ...l, sessionId: 's1', gitBranch: 'main' }));
  writeFileSync(join(dir, '-work-demo', 's1.jsonl'), `${lines.join('\n')}\n`);
  const home = tempDir('romp-home-');
  const db = openIndexForWrite(join(home, 'index.db'), () => assert.fail('new index'));
  await refreshIndex(db, { projectsDir: dir });
  return { db, dir, home };
}

test('a snippet marks the match itself when lowercasing changes the text length', () => {
  // each İ lowercases to i + U+0307: a lowercased index would put the marks four code units late
  assert.equal(around('İİİİ İstanbul deploy fails', 'deploy'), 'İİİİ İstanbul \u0002deploy\u0003 fails');
  assert.equal(around('İİİİ İstanbul deploy fails', 'İSTANBUL'), 'İİİİ \u0002İstanbul\u0003 deploy fails');
  assert.equal(around('Hello', 'zebra'), 'Hello');
});

test('substring search: a two-character word is found (LIKE), alone or beside a longer one', async () => {
  const { db } = await indexed();
  try {
    // "日本" and "js" are parts of words: the word index has no such token, the trigram index needs 3 characters
    const cjk = searchIndex(db, '日本');
    assert.deepEqual(
      cjk.map((h) => [h.uuid, h.matched, marked(h), h.git_branch]),
      [['a1', 'substring', '«日本»語 のテスト is in nodejs land', 'main']],
    );
    assert.deepEqual(
      searchIndex(db, 'js').map((h) => [h.uuid, marked(h)]),
      [['a1', '日本語 のテスト is in node«js» land']],
    );
    assert.deepEqual(
      searchIndex(db, 'テス js').map((h) => h.uuid),
      ['a1'],
    );
    assert.deepEqual(searchIndex(db, 'テス zq'), []);
    assert.deepEqual(
      searchIndex(db, 'deploy').map((h) => [h.uuid, h.matched, h.snippet, h.matches]),
      [['u1', 'words', 'İİİİ İstanbul deploy fails', [[14, 20]]]],
    );
  } finally {
    db.close();
  }
});

test('the trigram index holds a tool input up to its first 1,024 characters and no tool output; their words are found', async () => {
  const dir = tempDir('romp-search-trigram-');
  mkdirSync(join(dir, '-work-demo'), { recursive: true });
  // "kangaroodle" at the input's start, "wombatizer" in it after 1,200 characters; "gnuplotter" in the output
  const input = { command: 'make kangaroodle', content: `${'x'.repeat(1200)} wombatizer` };
  const lines = [
    user('u1', null, 'plot it', 0),
    assistant('a1', 'u1', toolUse('t1', 'Write', input), 1, { mid: 'm1', stop: 'tool_use' }),
    user('r1', 'a1', [toolResult('t1', 'gnuplotter done')], 2),
  ].map((l) => JSON.stringify({ ...l, sessionId: 's1' }));
  writeFileSync(join(dir, '-work-demo', 's1.jsonl'), `${lines.join('\n')}\n`);
  const db = openIndexForWrite(join(tempDir('romp-home-'), 'index.db'), () => assert.fail('new index'));
  try {
    await refreshIndex(db, { projectsDir: dir });
    assert.equal(JSON.stringify(input).indexOf('wombatizer') > TRIGRAM_TOOL_INPUT_CHARS, true);
    const found = (q: string): string[][] => searchIndex(db, q).map((h) => [h.uuid, h.matched]);
    // a part of a word in the tool input's start: a substring hit
    assert.deepEqual(found('garood'), [['a1', 'substring']]);
    // past the input's first 1,024 characters, or in the output: no substring hit, but the whole word is a word hit
    assert.deepEqual(found('mbatiz'), []);
    assert.deepEqual(found('wombatizer'), [['a1', 'words']]);
    assert.deepEqual(found('uplott'), []);
    assert.deepEqual(found('gnuplotter'), [['r1', 'words']]);
  } finally {
    db.close();
  }
});

test('romp sql prints 64-bit integers exactly, in the table and as JSON numbers', async () => {
  const { db, home } = await indexed();
  db.close();
  const sql = 'SELECT 9007199254740993 AS big, -9223372036854775808 AS least, 42 AS small, 1.5 AS half';
  const json = await runCli(['sql', sql, '--romp-home', home, '--json']);
  assert.equal(json.code, 0, json.err);
  assert.equal(json.out, '[{"big":9007199254740993,"least":-9223372036854775808,"small":42,"half":1.5}]\n');
  const table = await runCli(['sql', sql, '--romp-home', home]);
  assert.match(table.out, /9007199254740993 .*-9223372036854775808 .* 42 .* 1\.5/);
});

test('romp sql refuses a second statement and an empty query, never dropping one silently', async () => {
  const { db, home } = await indexed();
  db.close();
  const two = await runCli(['sql', 'select 1; delete from sessions', '--romp-home', home]);
  assert.deepEqual([two.code, two.out], [2, '']);
  assert.match(two.err, /one statement at a time/);
  const empty = await runCli(['sql', '  -- nothing\n', '--romp-home', home]);
  assert.deepEqual([empty.code, /give a query/.test(empty.err)], [2, true]);
  // a `;` inside a literal, a quoted name or a comment, and one at the end, leave one statement
  const one = await runCli(['sql', `select 'a;b' as "x;y" /* ; */ ; -- done`, '--romp-home', home, '--json']);
  assert.deepEqual([one.code, one.out], [0, '[{"x;y":"a;b"}]\n']);
});
