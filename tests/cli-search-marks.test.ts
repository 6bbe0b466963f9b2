import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { markMatches, unmark } from '../src/text/match-marks.ts';
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
