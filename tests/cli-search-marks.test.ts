import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { clipMatched, markMatches, unmark } from '../src/text/match-marks.ts';
import { runCli } from './helpers/run-cli.ts';
import { tempDir } from './helpers/temp-dir.ts';
import { user } from './helpers/transcript.ts';

test('unmark takes the marks out and says where the matches were; markMatches puts them back', () => {
  const plain = unmark('a \u0002bc\u0003 d\u0002e\u0003\u0003 \u0002\u0003f\u0002g', '\u0002', '\u0003');
  // a stray close is dropped, an empty match is not kept, an unclosed one runs to the end
  assert.deepEqual(plain, {
    text: 'a bc de fg',
    matches: [
      [2, 4],
      [6, 7],
      [9, 10],
    ],
  });
  assert.equal(markMatches(plain, '[', ']'), 'a [bc] d[e] f[g]');
  // each piece escaped on its own: the marks are never escaped, the text's own brackets are
  assert.equal(
    markMatches({ text: '<x> <y>', matches: [[4, 7]] }, '<b>', '</b>', (s) => s.replaceAll('<', '&lt;')),
    '&lt;x> <b>&lt;y></b>',
  );
  // out of range or overlapping matches are clamped to the text
  assert.equal(
    markMatches(
      {
        text: 'abc',
        matches: [
          [1, 2],
          [0, 9],
        ],
      },
      '[',
      ']',
    ),
    'a[b][c]',
  );
});

test('romp search --json: the snippet as plain text with the matches as offsets; the terminal output marks them', async () => {
  const dir = tempDir('romp-search-marks-');
  const home = tempDir('romp-home-');
  mkdirSync(join(dir, '-work-demo'));
  // the prompt holds the marks' own characters and an OSC title sequence
  const prompt = 'the «old» flamingo\u001b]0;pwned\u0007 nests here';
  writeFileSync(
    join(dir, '-work-demo', 's1.jsonl'),
    `${JSON.stringify({ ...user('u1', null, prompt, 0), sessionId: 's1' })}\n`,
  );
  const json = await runCli(['search', 'flamingo', '--projects', dir, '--romp-home', home, '--json', '--no-progress']);
  assert.equal(json.code, 0, json.err);
  const hits = JSON.parse(json.out) as Array<{ snippet: string; matches: Array<[number, number]> }>;
  // "the «old» " is 10 code units, "flamingo" 8
  assert.deepEqual(
    hits.map((h) => [h.snippet, h.matches]),
    [[prompt, [[10, 18]]]],
  );
  const human = await runCli([
    'search',
    'flamingo',
    '--projects',
    dir,
    '--romp-home',
    home,
    '--no-refresh',
    '--timezone',
    'Asia/Tokyo',
  ]);
  assert.equal(human.code, 0, human.err);
  assert.deepEqual(
    [0, 2].map((i) => human.out.split('\n')[i]),
    ['1 hit · times in Asia/Tokyo', '  the «old» «flamingo»\\x1b]0;pwned\\x07 nests here'],
  );
});

test('clipMatched keeps at most max code units around the first match, never half a surrogate pair', () => {
  const fits = { text: 'short', matches: [[0, 5]] as Array<[number, number]> };
  assert.equal(clipMatched(fits, 10), fits);
  // 100 x, the match "yy" at 100, 100 z: the window starts 10 before it (max / 3) and keeps 30
  const long = { text: `${'x'.repeat(100)}yy${'z'.repeat(100)}`, matches: [[100, 102]] as Array<[number, number]> };
  assert.deepEqual(clipMatched(long, 30), { text: `…${'x'.repeat(10)}yy${'z'.repeat(18)}…`, matches: [[11, 13]] });
  // one match longer than the window: clipped to it
  const huge = { text: 'A'.repeat(5000), matches: [[0, 5000]] as Array<[number, number]> };
  assert.deepEqual(clipMatched(huge, 8), { text: 'AAAAAAAA…', matches: [[0, 8]] });
  // a cut inside an emoji moves past it rather than keep half of it
  const emoji = { text: `${'😀'.repeat(20)}`, matches: [[10, 12]] as Array<[number, number]> };
  const cut = clipMatched(emoji, 7);
  assert.ok(!/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(cut.text), cut.text);
});

test('romp search: a hit in a line of one 200 KB word is a snippet of a line, not of the word', async () => {
  const dir = tempDir('romp-search-marks-');
  const home = tempDir('romp-home-');
  mkdirSync(join(dir, '-work-demo'));
  writeFileSync(
    join(dir, '-work-demo', 's1.jsonl'),
    `${JSON.stringify({ ...user('u1', null, `pelican ${'A'.repeat(200_000)}`, 0), sessionId: 's1' })}\n`,
  );
  const json = await runCli(['search', 'pelican', '--projects', dir, '--romp-home', home, '--json', '--no-progress']);
  assert.equal(json.code, 0, json.err);
  const hits = JSON.parse(json.out) as Array<{ snippet: string; matches: Array<[number, number]> }>;
  assert.deepEqual(
    hits.map((h) => [h.snippet.length, h.snippet.slice(0, 9), h.matches]),
    [[241, 'pelican A', [[0, 7]]]],
  );
});
