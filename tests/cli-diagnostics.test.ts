/** Every command that parses a session says its diagnostics as `romp show` does: stderr, `--json`, the page. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import type { Diagnostic } from '../src/diagnostics/diagnostic.ts';
import { runCli } from './helpers/run-cli.ts';
import { assistant, user, writeJsonl } from './helpers/transcript.ts';

// a file name that is markup, to see the page escape it
const path = writeJsonl(
  [
    user('u1', null, 'q', 0),
    '[1,2]',
    '"x"',
    assistant('a1', 'u1', { type: 'text', text: 'ok' }, 1, { mid: 'm', stop: 'end_turn' }),
  ],
  '<b>s.jsonl',
);
const shown = [
  `${path}:2: error NOT_AN_OBJECT line is JSON array, not an object`,
  `${path}:3: error NOT_AN_OBJECT line is JSON string, not an object`,
];
const lines = (err: string): string[] => err.split('\n').filter((l) => l.includes('NOT_AN_OBJECT'));
const codes = (out: string): Array<[string, number | undefined]> =>
  (JSON.parse(out) as { diagnostics: Diagnostic[] }).diagnostics.map((d) => [d.code, d.line]);
const expected: Array<[string, number]> = [
  ['NOT_AN_OBJECT', 2],
  ['NOT_AN_OBJECT', 3],
];

test('show, html, html -o, export md and json, cache, cache --statusline, resume-check: the same stderr lines', async () => {
  const page = join(dirname(path), 'page.html');
  const commands = [
    ['show', path],
    ['html', path],
    ['html', path, '-o', page],
    ['export', path],
    ['export', path, '--format', 'json'],
    ['cache', path],
    ['cache', '--statusline', path],
    ['resume-check', path],
  ];
  for (const argv of commands) {
    const { code, err } = await runCli(argv);
    assert.equal(code, 0, argv.join(' '));
    assert.deepEqual(lines(err), shown, argv.join(' '));
  }
});

test('--json of html -o, cache and resume-check holds the diagnostics; the page lists them, escaped', async () => {
  const page = join(dirname(path), 'page.html');
  assert.deepEqual(codes((await runCli(['html', path, '-o', page, '--json'])).out), expected);
  assert.deepEqual(codes((await runCli(['cache', path, '--json'])).out), expected);
  assert.deepEqual(codes((await runCli(['resume-check', path, '--json'])).out), expected);
  const escaped = path.replace('<b>', '&lt;b&gt;');
  assert.ok(
    readFileSync(page, 'utf8').includes(
      `<details class="diagnostics"><summary>2 diagnostics: 2 errors (input lost)</summary><ul><li>${escaped}:2: error NOT_AN_OBJECT line is JSON array, not an object</li><li>${escaped}:3: error NOT_AN_OBJECT line is JSON string, not an object</li></ul></details>`,
    ),
  );
});
