import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { test } from 'node:test';
import { parseLine } from '../../src/read/parse-line.ts';
import { readTranscript } from '../../src/read/read-transcript.ts';
import { writeJsonl } from '../helpers/transcript.ts';

test('a BOM on line 1 and CRLF endings are removed', () => {
  assert.deepEqual(parseLine('\uFEFF{"type":"user"}\r', 'f', 1, 0).records, [{ type: 'user' }]);
});

test('two records glued on one line are split, with a GLUED_RECORDS warning', () => {
  const r = parseLine('{"type":"summary","summary":"a}{b"}{"type":"file-history-snapshot"}', 'f', 7, 100);
  assert.deepEqual(r.records, [{ type: 'summary', summary: 'a}{b' }, { type: 'file-history-snapshot' }]);
  assert.deepEqual(
    r.diagnostics.map((d) => [d.code, d.line, d.byteOffset]),
    [['GLUED_RECORDS', 7, 100]],
  );
});

test('NUL padding is removed; a line of NULs alone is a NUL_BYTES diagnostic', () => {
  assert.deepEqual(parseLine('\u0000\u0000{"a":1}', 'f', 2, 0).records, [{ a: 1 }]);
  const only = parseLine('\u0000\u0000\u0000', 'f', 3, 9);
  assert.deepEqual([only.records, only.diagnostics.map((d) => d.code)], [[], ['NUL_BYTES']]);
});

test('non-objects, blank lines and broken JSON each give one diagnostic with its code', () => {
  assert.deepEqual(
    parseLine('[1,2]', 'f', 1, 0).diagnostics.map((d) => d.code),
    ['NOT_AN_OBJECT'],
  );
  assert.deepEqual(
    parseLine('   ', 'f', 1, 0).diagnostics.map((d) => d.code),
    ['BLANK_LINE'],
  );
  assert.deepEqual(
    parseLine('{"type":"user","mess', 'f', 1, 0).diagnostics.map((d) => d.code),
    ['INVALID_JSON'],
  );
});

test('a corrupt line in the middle is reported with line and byte offset, and the lines after it parse', async () => {
  const path = writeJsonl(['{"type":"a"}', '{"type":"b","x":"cut', '{"type":"c"}']);
  const r = await readTranscript(path);
  assert.deepEqual(
    r.records.map((x) => [x.record['type'], x.line, x.byteOffset]),
    [
      ['a', 1, 0],
      ['c', 3, 34],
    ],
  );
  assert.deepEqual(
    r.diagnostics.map((d) => [d.code, d.line, d.byteOffset]),
    [['INVALID_JSON', 2, 13]],
  );
  assert.equal(r.lines, 3);
});

test('a line over maxLineBytes is LINE_TOO_LONG and the rest still parses', async () => {
  const path = writeJsonl([`{"type":"big","pad":"${'x'.repeat(5000)}"}`, '{"type":"small"}']);
  const r = await readTranscript(path, { maxLineBytes: 1024, chunkBytes: 512 });
  assert.deepEqual(
    r.records.map((x) => x.record['type']),
    ['small'],
  );
  assert.deepEqual(
    r.diagnostics.map((d) => [d.code, d.line]),
    [['LINE_TOO_LONG', 1]],
  );
});

test('an unreadable file is a FILE_UNREADABLE diagnostic, not an exception', async () => {
  const r = await readTranscript('/nonexistent/romp/x.jsonl');
  assert.deepEqual([r.records.length, r.diagnostics.map((d) => d.code)], [0, ['FILE_UNREADABLE']]);
});

test('a file without a trailing newline keeps its last line', async () => {
  const path = writeJsonl([]);
  writeFileSync(path, '{"type":"a"}\n{"type":"b"}');
  const r = await readTranscript(path);
  assert.deepEqual(
    r.records.map((x) => x.record['type']),
    ['a', 'b'],
  );
});

test('a torn record followed by a whole one on the same line keeps the whole one', () => {
  const whole = '{"parentUuid":"a1","type":"user","uuid":"u2"}';
  const r = parseLine(
    `{"parentUuid":null,"type":"assistant","uuid":"a1","message":{"content":[{"type":"te${whole}`,
    'f',
    4,
    0,
  );
  assert.deepEqual(r.records, [{ parentUuid: 'a1', type: 'user', uuid: 'u2' }]);
  assert.deepEqual(
    r.diagnostics.map((d) => d.code),
    ['INVALID_JSON'],
  );
});

test('a BOM on a later line (files joined with cat) is removed too', () => {
  assert.deepEqual(parseLine('\uFEFF{"a":1}', 'f', 9, 0).records, [{ a: 1 }]);
});

test('bytes that are not UTF-8 are INVALID_UTF8 on their line; a U+FFFD written as UTF-8 is not', async () => {
  const path = writeJsonl([]);
  const lines = [
    Buffer.from('{"type":"a","text":"caf\u00e9 \u2500 \uFFFD"}\n'),
    Buffer.concat([Buffer.from('{"type":"b","text":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}\n')]),
    Buffer.from('{"type":"c","text":"\uFFFD"}\n'),
  ];
  writeFileSync(path, Buffer.concat(lines));
  const r = await readTranscript(path);
  assert.deepEqual(
    r.records.map((x) => x.record['type']),
    ['a', 'b', 'c'],
  );
  assert.deepEqual(
    r.diagnostics.map((d) => [d.code, d.line]),
    [['INVALID_UTF8', 2]],
  );
  assert.equal(r.records[1]?.record['text'], '\uFFFD(');
});

test('a UTF-16 file (LE or BE, with or without a byte-order mark) is read as text: same records as its UTF-8 twin, one UTF16_FILE', async () => {
  const text = '{"type":"a","text":"caf\u00e9 \u2500 \u{1F600}"}\r\n{"type":"b"}\n';
  const be = (s: string): Buffer => Buffer.from(s, 'utf16le').swap16();
  const boms = [
    Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]),
    Buffer.concat([Buffer.from([0xfe, 0xff]), be(text)]),
  ];
  for (const bytes of [...boms, Buffer.from(text, 'utf16le'), be(text)]) {
    const path = writeJsonl([]);
    writeFileSync(path, bytes);
    // chunks of 7 bytes split characters and surrogate pairs across reads
    const r = await readTranscript(path, { chunkBytes: 7 });
    assert.deepEqual(
      r.records.map((x) => [x.record, x.line]),
      [
        [{ type: 'a', text: 'caf\u00e9 \u2500 \u{1F600}' }, 1],
        [{ type: 'b' }, 2],
      ],
    );
    assert.deepEqual(
      r.diagnostics.map((d) => d.code),
      ['UTF16_FILE'],
    );
  }
});

test('-0 and numbers beyond a double become what JSON.stringify writes (0, null): the session round-trips, NUMBER_REPLACED says so', async () => {
  const { parseSession } = await import('../../src/session/parse-session.ts');
  const path = writeJsonl([
    '{"type":"user","uuid":"u1","parentUuid":null,"timestamp":"2026-01-01T00:00:00.000Z","message":{"role":"user","content":[{"type":"text","text":"hi","n":-0,"m":[1e999,-1e999,-0.0,0,-0.5]}]}}',
  ]);
  const { session, diagnostics } = await parseSession([path]);
  const block = session.turns[0]?.atoms[0]?.message?.content[0] as unknown as { n: number; m: unknown[] };
  assert.ok(Object.is(block.n, 0));
  assert.deepEqual(block.m, [null, null, 0, 0, -0.5]);
  assert.deepEqual(JSON.parse(JSON.stringify(session)), session);
  assert.deepEqual(
    diagnostics.map((d) => [d.code, d.line]),
    [['NUMBER_REPLACED', 1]],
  );
});
