import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { findUnread } from '../../src/read/find-unread.ts';
import { readTranscript } from '../../src/read/read-transcript.ts';
import { tempDir } from '../helpers/temp-dir.ts';

/** The line with its unread span cut out, or `undefined` when nothing is skipped. */
function cut(line: string, maxDepth = 256, content = false): string | undefined {
  const buf = Buffer.from(line);
  const span = findUnread(buf, 0, buf.length, maxDepth, content);
  return span === undefined ? undefined : buf.toString('utf8', 0, span.from) + buf.toString('utf8', span.to);
}

test('a toolUseResult value is cut out whole, through quotes, escapes and brackets in its strings', () => {
  const line = String.raw`{"type":"user","toolUseResult":{"stdout":"a \"}\" ]\\","n":[1,{"x":"\\\""}]},"uuid":"u1"}`;
  assert.equal(cut(line), '{"type":"user","uuid":"u1"}');
  assert.equal(cut('{"type":"user","toolUseResult":"Error: no","uuid":"u1"}\r'), '{"type":"user","uuid":"u1"}\r');
  assert.equal(cut('{"type":"user","toolUseResult":null}'), '{"type":"user"}');
});

test("a progress row's data is cut out; the key elsewhere is kept", () => {
  assert.equal(
    cut('{"parentUuid":null,"type":"progress","data":{"type":"hook_progress","n":2},"uuid":"p1"}'),
    '{"parentUuid":null,"type":"progress","uuid":"p1"}',
  );
  assert.equal(cut('{"type":"system","data":{"a":1},"uuid":"s1"}'), undefined);
  // an agent's progress: its data holds a user line with its own toolUseResult, a key at depth 3
  const agent = '{"type":"user","message":{"content":[]},"toolUseResult":{"stdout":"x"}}';
  assert.equal(
    cut(`{"parentUuid":"a1","type":"progress","data":{"message":${agent},"type":"agent_progress"},"uuid":"p2"}`),
    '{"parentUuid":"a1","type":"progress","uuid":"p2"}',
  );
  // a row torn right after its type: nothing to cut, and no RangeError from the bytes it lacks
  assert.equal(cut('{"parentUuid":null,"type":"progress"'), undefined);
  assert.equal(cut('{"parentUuid":null,"type":"progress","da'), undefined);
});

test("for usage readers, the top-level message's content is cut, wherever it sits among the members", () => {
  const content = (line: string): string | undefined => cut(line, 256, true);
  const blocks = String.raw`[{"type":"text","text":"a \"content\":[ }"},{"type":"tool_use","input":{"content":"x"}}]`;
  assert.equal(
    content(`{"uuid":"a1","message":{"id":"msg_1","content":${blocks},"usage":{"input_tokens":3}},"type":"assistant"}`),
    '{"uuid":"a1","message":{"id":"msg_1","usage":{"input_tokens":3}},"type":"assistant"}',
  );
  assert.equal(
    content(`{"message": {"content": ${blocks}, "id": "msg_1"}, "type": "assistant"}`),
    '{"message": { "id": "msg_1"}, "type": "assistant"}',
  );
  assert.equal(content(`{"message":{"content":"hi"}}`), '{"message":{}}');
  // a `content` key elsewhere (top level, nested deeper) is not the message's: nothing is cut
  assert.equal(content('{"content":[1],"message":{"id":"m"}}'), undefined);
  assert.equal(content('{"message":{"id":{"content":[1]}}}'), undefined);
  // a key spelled with an escape, a torn line, or no object at all: the line is parsed whole
  assert.equal(content(String.raw`{"mess\u0061ge":{"content":[1]}}`), undefined);
  assert.equal(content('{"message":{"content":[1,'), undefined);
  assert.equal(content('[{"message":{"content":[1]}}]'), undefined);
  // a line without a message still has its toolUseResult cut
  assert.equal(content('{"type":"user","toolUseResult":{"a":1},"uuid":"u1"}'), '{"type":"user","uuid":"u1"}');
});

test('a toolUseResult key below depth 1, a torn value or one nested too deep is not cut', () => {
  assert.equal(cut('{"type":"assistant","message":{"a":1,"toolUseResult":{"b":2}},"uuid":"a1"}'), undefined);
  assert.equal(cut('{"type":"user","toolUseResult":{"stdout":"tor'), undefined);
  assert.equal(cut('{"type":"user","toolUseResult":[[[1]]],"uuid":"u1"}', 3), undefined);
  assert.equal(cut('{"type":"user","toolUseResult":[[[1]]],"uuid":"u1"}', 4), '{"type":"user","uuid":"u1"}');
});

test('the depth cap: a value cut for its depth is not skipped, so TOO_DEEP is still reported', async () => {
  const dir = tempDir('romp-unread-');
  const file = join(dir, 'd.jsonl');
  writeFileSync(file, '{"type":"user","toolUseResult":[[[1]]],"uuid":"u1"}\n');
  for (const [maxDepth, codes] of [
    [3, ['TOO_DEEP']],
    [4, []],
  ] as const) {
    const on = await readTranscript(file, { skipUnread: true, maxDepth });
    const off = await readTranscript(file, { maxDepth });
    assert.deepEqual([on.diagnostics.map((d) => d.code), off.diagnostics.map((d) => d.code)], [codes, codes]);
  }
});

test('with skipUnread, records lack the skipped keys; bad UTF-8 and broken JSON there are still reported', async () => {
  const dir = tempDir('romp-unread-');
  const file = join(dir, 's.jsonl');
  const bad = Buffer.from('{"type":"user","toolUseResult":{"stdout":"\xff"},"uuid":"u2"}\n', 'latin1');
  const lines = [
    '{"type":"user","toolUseResult":{"stdout":"ok"},"uuid":"u1"}',
    '{"type":"user","toolUseResult":{"a" 1},"uuid":"u3"}',
  ];
  writeFileSync(file, Buffer.concat([Buffer.from(`${lines[0]}\n`), bad, Buffer.from(`${lines[1]}\n`)]));
  const on = await readTranscript(file, { skipUnread: true });
  assert.deepEqual(
    on.records.map((r) => r.record),
    [
      { type: 'user', uuid: 'u1' },
      { type: 'user', uuid: 'u2' },
      { type: 'user', uuid: 'u3' },
    ],
  );
  assert.deepEqual(
    on.diagnostics.map((d) => [d.code, d.line]),
    [['INVALID_UTF8', 2]],
  );
  const off = await readTranscript(file);
  assert.deepEqual(
    off.records.map((r) => r.record['toolUseResult']),
    [{ stdout: 'ok' }, { stdout: '\uFFFD' }],
  );
  assert.deepEqual(
    off.diagnostics.map((d) => [d.code, d.line]),
    [
      ['INVALID_UTF8', 2],
      ['INVALID_JSON', 3],
    ],
  );
});

test('UTF-8 is checked once per chunk: a bad byte in a skipped value or across chunks is still its line’s', async () => {
  const dir = tempDir('romp-unread-');
  const file = join(dir, 'c.jsonl');
  const good = (uuid: string): Buffer =>
    Buffer.from(`{"type":"user","toolUseResult":{"stdout":"é"},"uuid":"${uuid}"}\n`);
  const bad = (uuid: string): Buffer =>
    Buffer.from(`{"type":"user","toolUseResult":{"stdout":"\xff"},"uuid":"${uuid}"}\n`, 'latin1');
  const lines = [good('u1'), good('u2'), bad('u3'), good('u4'), bad('u5'), good('u6')];
  writeFileSync(file, Buffer.concat(lines));
  // lines of 60 (good) and 59 (bad) bytes: the first chunk of 120 bytes holds lines 1 and 2 whole, chunks of
  // 100 split lines between them, and one chunk holds the whole file
  for (const chunkBytes of [120, 100, 1 << 20]) {
    const on = await readTranscript(file, { skipUnread: true, chunkBytes });
    assert.deepEqual(
      on.records.map((r) => r.record['uuid']),
      ['u1', 'u2', 'u3', 'u4', 'u5', 'u6'],
    );
    assert.deepEqual(
      on.diagnostics.map((d) => [d.code, d.line]),
      [
        ['INVALID_UTF8', 3],
        ['INVALID_UTF8', 5],
      ],
      `chunks of ${chunkBytes} bytes`,
    );
  }
});

test('the text around a skipped value is decoded whole at any size: 60 KiB, 300 KiB, 1.2 MiB, then 60 KiB again', async () => {
  const dir = tempDir('romp-unread-');
  const file = join(dir, 'j.jsonl');
  // the joined text is built in a buffer of 64 KiB, grown up to 1 MiB; a longer one gets a buffer of its own
  const sizes = [60_000, 300_000, 1_200_000, 60_000];
  const text = (n: number, i: number): string => `${'é'.repeat(n / 2)}${i}`;
  const line = (n: number, i: number): string =>
    `{"type":"user","message":{"content":"${text(n, i)}"},"toolUseResult":{"stdout":"${'x'.repeat(n)}"},"uuid":"u${i}"}\n`;
  writeFileSync(file, sizes.map((n, i) => line(n, i)).join(''));
  const on = await readTranscript(file, { skipUnread: true });
  assert.deepEqual(
    on.records.map((r) => r.record),
    sizes.map((n, i) => ({ type: 'user', message: { content: text(n, i) }, uuid: `u${i}` })),
  );
  assert.deepEqual(on.diagnostics, []);
});
