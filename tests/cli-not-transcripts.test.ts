/**
 * Files in a projects folder that are not sessions, or not yet: a binary named `*.jsonl`, an empty file (a session
 * Claude Code is creating), a file of JSON lines that are not a transcript's, and a UTF-16 copy that is one.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { notTranscriptIn } from '../src/discover/not-transcript.ts';
import { runCli } from './helpers/run-cli.ts';
import { tempDir } from './helpers/temp-dir.ts';
import { assistant, text, user } from './helpers/transcript.ts';

/** A PNG's signature and a chunk header, renamed `x.jsonl`: three lines (`\x89PNG\r`, `\x1a`, the rest, no newline). */
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 1, 2]);

const lines = (records: object[]): string => records.map((r) => JSON.stringify(r)).join('\n') + '\n';

/** `-work-app/` with `ok.jsonl` (one prompt and its answer), `x.jsonl` (PNG), `empty.jsonl` (0 bytes), `json.jsonl`
 * (two JSON lines, neither an object with a `type`) and `wide.jsonl` (`ok`'s lines as UTF-16LE with a byte-order
 * mark). */
function projects(): { root: string; dir: string; path: (name: string) => string } {
  const root = tempDir('romp-not-transcripts-');
  const dir = join(root, '-work-app');
  mkdirSync(dir);
  const ok = lines([user('u1', null, 'hello', 0), assistant('a1', 'u1', text('hi'), 1, { mid: 'm1' })]);
  writeFileSync(join(dir, 'ok.jsonl'), ok);
  writeFileSync(join(dir, 'x.jsonl'), PNG);
  writeFileSync(join(dir, 'empty.jsonl'), '');
  writeFileSync(join(dir, 'json.jsonl'), '[1,2]\n{"kind":"row"}\n');
  writeFileSync(join(dir, 'wide.jsonl'), Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(ok, 'utf16le')]));
  return { root, dir, path: (name) => join(dir, name) };
}

const notTranscript = (file: string, which: string): string =>
  `not a Claude Code transcript (${which} a transcript line; romp doctor ${file} says why)`;

test('notTranscriptIn: no complete line of the head is a JSON object with a string type; empty and UTF-16 files pass', () => {
  const judge = (text: string | Buffer, size?: number): string | undefined => {
    const bytes = typeof text === 'string' ? Buffer.from(text) : text;
    return notTranscriptIn(bytes, size ?? bytes.length, 'F');
  };
  assert.equal(judge(PNG), notTranscript('F', 'none of its first 3 lines is'));
  assert.equal(judge('{"type":1}\n'), notTranscript('F', 'its one line is not'));
  assert.equal(judge('[1]\n\n  \n{"a":{"type":"x"}}\n'), notTranscript('F', 'none of its first 2 lines is'));
  // a transcript line anywhere in the head, past a byte-order mark, NUL padding, a CRLF
  assert.equal(judge('garbage\n\ufeff{"type":"user"}\r\n'), undefined);
  assert.equal(judge('\u0000\u0000{"type":"summary"}\n'), undefined);
  assert.equal(judge(Buffer.from('\ufeff{"type":"user"}\n', 'utf16le')), undefined);
  // nothing to judge: empty, blank lines, a first line not complete in the head
  assert.equal(judge(''), undefined);
  assert.equal(judge('\n\n'), undefined);
  assert.equal(judge('{"type":"user","message":"a long line', 1_000_000), undefined);
  // a last line is complete only when the head is the whole file
  assert.equal(judge('{"x":1}\n{"type":"user"}', 1_000_000), notTranscript('F', 'its one line is not'));
});

test('romp ls leaves out a file that is not a transcript, named on stderr as romp show refuses it; exit 0', async () => {
  const { root, path } = projects();
  const ls = await runCli(['ls', '--projects', root, '--no-index', '--json']);
  assert.equal(ls.code, 0);
  const listed = (JSON.parse(ls.out) as Array<{ id: string }>).map((s) => s.id).sort();
  assert.deepEqual(listed, ['empty', 'ok', 'wide']);
  assert.equal(
    ls.err,
    [
      `romp: skipped ${path('json.jsonl')}: ${notTranscript(path('json.jsonl'), 'none of its first 2 lines is')}`,
      `romp: skipped ${path('x.jsonl')}: ${notTranscript(path('x.jsonl'), 'none of its first 3 lines is')}`,
      '',
    ].join('\n'),
  );
  // the commands given the file refuse it in the same words
  const usage = await runCli(['usage', path('x.jsonl')]);
  assert.deepEqual(
    [usage.code, usage.err],
    [2, `romp: ${path('x.jsonl')}: ${notTranscript(path('x.jsonl'), 'none of its first 3 lines is')}\n`],
  );
  const show = await runCli(['show', path('x.jsonl')]);
  assert.deepEqual(
    [show.code, show.err],
    [
      2,
      `romp: ${path('x.jsonl')}: not a Claude Code transcript (0 of 3 lines readable; romp doctor ${path('x.jsonl')} says why)\n`,
    ],
  );
});

test('an empty file is a session being created: ls lists it (empty), show prints 0 turns and says so, exit 0', async () => {
  const { root, path } = projects();
  const ls = await runCli(['ls', '--projects', root, '--no-index', '--timezone', 'UTC']);
  assert.equal(ls.code, 0);
  const row = ls.out.split('\n').find((line) => / empty {2}/.test(line)) ?? '';
  assert.match(row, /^\d{4}-\d\d-\d\d \d\d:\d\d\* +0 +-work-app +empty +\(empty\)$/);
  for (const command of ['show', 'json', 'turns']) {
    const r = await runCli([command, path('empty.jsonl')]);
    assert.deepEqual(
      [command, r.code, r.err],
      [command, 0, `romp: ${path('empty.jsonl')}: empty, no line written yet\n`],
    );
  }
  const json = await runCli(['json', path('empty.jsonl')]);
  assert.equal((JSON.parse(json.out) as { turns: unknown[] }).turns.length, 0);
  // a file with lines says nothing of the kind
  assert.equal((await runCli(['show', path('ok.jsonl')])).err, '');
});

test('romp show of a stream-json capture parses it and names romp stream on stderr; a transcript gets no such line', async () => {
  const dir = tempDir('romp-stream-hint-');
  const stream = join(dir, 'capture.jsonl');
  writeFileSync(
    stream,
    lines([
      { type: 'system', subtype: 'init', session_id: 's1', uuid: 'i1' },
      { type: 'user', session_id: 's1', uuid: 'u1', message: { role: 'user', content: 'hi' } },
      { type: 'stream_event', session_id: 's1', uuid: 'e1', event: { type: 'message_stop' } },
      { type: 'result', subtype: 'success', session_id: 's1', uuid: 'r1', is_error: false, num_turns: 1 },
    ]),
  );
  const shown = await runCli(['show', stream]);
  assert.equal(shown.code, 0, shown.err);
  assert.deepEqual(
    shown.err.split('\n').filter((l) => l.startsWith('romp:')),
    [`romp: ${stream}: holds stream-json messages (stream_event, result): \`romp stream\` reads a stream`],
  );
  const transcript = join(dir, 'ok.jsonl');
  writeFileSync(transcript, lines([user('u1', null, 'hi', 0), assistant('a1', 'u1', text('yes'), 1, { mid: 'm1' })]));
  assert.doesNotMatch((await runCli(['show', transcript])).err, /romp stream/);
});
