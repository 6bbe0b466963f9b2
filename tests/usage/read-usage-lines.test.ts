/**
 * `readUsageLines` against the full read stage (`readTranscript`, every line decoded and parsed): the same
 * assistant records (in what usage reads of them), line numbers and byte offsets, on hand-made shapes and on
 * every corpus file; long lines, byte ranges and UTF-16 files.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Diagnostic } from '../../src/diagnostics/diagnostic.ts';
import type { RawRecord } from '../../src/read/parse-line.ts';
import { readTranscript } from '../../src/read/read-transcript.ts';
import { collectFileResponses, countUsage, reportGroups } from '../../src/usage/count-usage.ts';
import { readUsageLines, type UsageReadOptions } from '../../src/usage/read-usage-lines.ts';
import { corpusTranscripts } from '../helpers/corpus.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const dir = tempDir('romp-usage-lines-');
let files = 0;
function write(content: string | Buffer): string {
  const path = join(dir, `f${++files}.jsonl`);
  writeFileSync(path, content);
  return path;
}

/** What `countUsage` reads of a record (a member `undefined` is not there: `usageRecord` gives one shape). */
function usageFields(r: RawRecord): unknown {
  const m = r['message'];
  const there = (o: RawRecord, keys: string[]) =>
    Object.fromEntries(keys.flatMap((k) => (o[k] !== undefined ? [[k, o[k]]] : [])));
  const message =
    typeof m === 'object' && m !== null ? there(m as RawRecord, ['id', 'model', 'usage', 'stop_reason']) : m;
  return { ...there(r, ['type', 'requestId', 'sessionId', 'timestamp', 'isSidechain', 'version', 'uuid']), message };
}

async function fast(path: string, options: UsageReadOptions = {}) {
  const records: Array<[number, number, unknown]> = [];
  const diagnostics: Diagnostic[] = [];
  await readUsageLines(
    path,
    (r, line, at) => records.push([line, at, usageFields(r)]),
    (d) => diagnostics.push(d),
    options,
  );
  return { records, diagnostics, codes: diagnostics.map((d) => `${d.code}:${d.line ?? ''}`) };
}

async function full(path: string) {
  const read = await readTranscript(path);
  return read.records
    .filter((r) => r.record['type'] === 'assistant')
    .map((r): [number, number, unknown] => [r.line, r.byteOffset, usageFields(r.record)]);
}

const usage = { input_tokens: 3, output_tokens: 5, cache_creation: { ephemeral_5m_input_tokens: 2 } };
const asst = (id: string, extra: Record<string, unknown> = {}, message: Record<string, unknown> = {}) =>
  JSON.stringify({
    parentUuid: null,
    isSidechain: false,
    sessionId: 'S',
    version: '2.1.120',
    message: {
      model: 'claude-opus-4-5',
      id,
      type: 'message',
      role: 'assistant',
      content: [{ type: 'text', text: 'hi "there" \\ {[' }],
      stop_reason: 'end_turn',
      usage,
      ...message,
    },
    requestId: `req_${id}`,
    type: 'assistant',
    uuid: `u-${id}`,
    timestamp: '2026-03-01T10:00:00.000Z',
    ...extra,
  });

test('hand-made shapes: the records usage reads are those of the full parse, at the same lines and offsets', async () => {
  const lines = [
    JSON.stringify({ type: 'user', message: { role: 'user', content: 'say "assistant"' }, uuid: 'p' }),
    asst('m1'),
    `\uFEFF${asst('m2')}`, // a byte-order mark: parsed whole
    `${asst('m3')}\r`, // CRLF
    asst('m4', { sessionId: 'S\\u00e9 "q"', version: '2.1.9' }, { stop_reason: null }),
    asst('m5', { isSidechain: true, timestamp: 1_772_358_400_000 }, { model: { odd: 1 } }),
    JSON.stringify({ type: 'progress', data: { message: { type: 'assistant', message: { id: 'nested', usage } } } }),
    asst('m6').replace('"type":"assistant"', '"t\\u0079pe":"assistant"'), // an escaped key: parsed whole
    `${asst('m7')}${asst('m8')}`, // glued
    asst('m9').slice(0, 200), // torn
    asst('m10', { cwd: '/x/é/日本' })
      .replace('"input_tokens":3', '"input_tokens":-0')
      .replace('"output_tokens":5', '"output_tokens":1e999'),
    '',
    JSON.stringify({ type: 'assistant', message: 'not an object' }),
    asst('m11').replace('"type":"assistant"', '"type":"assistant","type":"user"'), // the last `type` wins
    asst('m12'), // the last line has no newline
  ];
  const path = write(lines.join('\n'));
  const got = await fast(path);
  assert.deepEqual(got.records, await full(path));
  assert.deepEqual(
    got.records.map(([line]) => line),
    [2, 3, 4, 5, 6, 8, 9, 9, 11, 13, 15],
  );
  assert.deepEqual(got.codes, ['GLUED_RECORDS:9', 'INVALID_JSON:10', 'NUMBER_REPLACED:11']);
});

test('a head of the same bytes as the line before: its members as the full parse gives them', async () => {
  const spaced = (line: string) => line.replaceAll(',"', ', "').replaceAll('":', '" :');
  const quoted = (line: string) => line.replace('"sessionId"', '"cwd":"x\\",\\"type\\":\\"user\\\\","sessionId"');
  const user = (sessionId: string) =>
    JSON.stringify({ parentUuid: 'p', isSidechain: false, sessionId, version: '2.1.120', type: 'user', message: 'hi' });
  const lines = [
    asst('a'),
    asst('b'), // the same head
    asst('c', { sessionId: 'T' }), // one byte different
    user('T'), // the same head, then `type`
    asst('d', { sessionId: 'T' }).replace('"type":"assistant"', '"sessionId":"U","type":"assistant"'), // the last wins
    asst('e', { isSidechain: true }),
    spaced(asst('f')),
    spaced(asst('g')),
    quoted(asst('h')),
    quoted(asst('i')),
    user('S'),
    asst('j').replace('"isSidechain":false', '"isSidechain":true'),
  ];
  const path = write(lines.join('\n'));
  const got = await fast(path);
  assert.deepEqual(got.records, await full(path));
  assert.deepEqual(
    got.records.map(([, , r]) => [(r as RawRecord)['sessionId'], (r as RawRecord)['isSidechain']]),
    [
      ['S', false],
      ['S', false],
      ['T', false],
      ['U', false],
      ['S', true],
      ['S', false],
      ['S', false],
      ['S', false],
      ['S', false],
      ['S', true],
    ],
  );
  // the same head nested deeper than a later read's cap: that read gives up on it, as the full parse does
  const deep = (id: string) => asst(id).replace('"sessionId"', '"x":{"a":{"b":{"c":{"d":{}}}}},"sessionId"');
  await fast(write(`${deep('k')}\n${deep('l')}\n`));
  const capped = write(`${deep('m')}\n`);
  assert.deepEqual((await fast(capped, { maxDepth: 5 })).codes, ['TOO_DEEP:1']);
  assert.deepEqual(
    (await readTranscript(capped, { maxDepth: 5 })).diagnostics.map((d) => `${d.code}:${d.line ?? ''}`),
    ['TOO_DEEP:1'],
  );
});

test("values of the same bytes as the last line's, and of others as long: as the full parse gives them", async () => {
  const tier = (t: string) => ({ ...usage, service_tier: t });
  const negative = (line: string) => line.replace('"version":"2.1.120"', '"version":-0');
  const lines = [
    asst('a'),
    asst('a'), // the same response: its id, requestId and model kept from the line before
    asst('b', {}, { model: 'claude-opus-4-6', usage: tier('standard') }), // as long, the last byte not the same
    asst('c', {}, { model: 'claude-opus-4', usage: tier('priority') }),
    asst('d', {}, { model: 'modèle', stop_reason: 'tool_use' }), // not ASCII: decoded each time
    asst('e', {}, { model: 'modèle' }),
    asst('f', {}, { model: 'q"x' }),
    asst('g', {}, { model: 'q"x', usage: tier('') }),
    negative(asst('h')), // a -0 in the head: both lines hold it (the second from the head's memo)
    negative(asst('i')),
  ];
  const path = write(lines.join('\n'));
  const got = await fast(path);
  assert.deepEqual(got.records, await full(path));
  assert.deepEqual(
    got.records.map(([, , r]) => ((r as RawRecord)['message'] as RawRecord)['model']),
    ['claude-opus-4-5', 'claude-opus-4-5', 'claude-opus-4-6', 'claude-opus-4', 'modèle', 'modèle', 'q"x', 'q"x'].concat(
      ['claude-opus-4-5', 'claude-opus-4-5'],
    ),
  );
  assert.deepEqual(
    got.records.map(([, , r]) => (((r as RawRecord)['message'] as RawRecord)['usage'] as RawRecord)['service_tier']),
    [undefined, undefined, 'standard', 'priority', undefined, undefined, undefined, '', undefined, undefined],
  );
  assert.deepEqual(got.codes, ['NUMBER_REPLACED:9', 'NUMBER_REPLACED:10']);
});

test('usage objects read without JSON.parse, and those left to it: as the full parse gives them', async () => {
  const plain = '{"input_tokens":3,"cache_creation":{"ephemeral_5m_input_tokens":0},"output_tokens":10}';
  const usages = [
    plain,
    '{}',
    '{"input_tokens":0,"output_tokens":999999999999999,"service_tier":"standard","speed":null}',
    '{"input_tokens":1,"server_tool_use":{"web_search_requests":2},"iterations":[],"inference_geo":true}',
    '{"input_tokens":1,"output_tokens":2,"input_tokens":7}', // the last wins, in the first's place
    '{"input_tokens":1234567890123456}', // 16 digits
    '{"input_tokens":1.5,"output_tokens":2}',
    '{"input_tokens":-0,"output_tokens":1e3}',
    '{"input_tokens":012}', // not JSON
    '{"input_tokens": 3}',
    '{"input_tokens":3,"__proto__":{"x":1}}',
    '{"input_tokens":3,"output_tokens_details":{"thinking_tokens":4}}',
    '{"input_tokens":3,"iterations":[{"input_tokens":1}]}',
    '{"input_tokens":3,"cache_creation":{"ephemeral_5m_input_tokens":{"a":1}}}',
    '{"input_tokens":3,"service_tier":"st\\u0061ndard","inference_geo":"x\\"y"}',
    '{"input_tokens":3,"service_tier":"\u0001"}', // a raw control character: not JSON
    '{"input_tokens":3,"inference_geo":fals}',
    '{"input_tokens":3',
  ];
  const lines = usages.map((u, i) => asst(`u${i}`).replace(JSON.stringify(usage), u));
  const path = write(`${lines.join('\n')}\n${asst('torn').slice(0, asst('torn').indexOf('"output_tokens"') + 18)}`);
  const got = await fast(path);
  assert.deepEqual(got.records, await full(path));
  const read = (n: number) => (got.records.find(([line]) => line === n)?.[2] as { message: RawRecord }).message;
  assert.deepEqual(read(1)['usage'], {
    input_tokens: 3,
    cache_creation: { ephemeral_5m_input_tokens: 0 },
    output_tokens: 10,
  });
  assert.deepEqual(Object.keys(read(5)['usage'] as object), ['input_tokens', 'output_tokens']);
  assert.equal((read(5)['usage'] as RawRecord)['input_tokens'], 7);
  assert.equal((read(6)['usage'] as RawRecord)['input_tokens'], 1234567890123456);
  assert.equal(Object.getPrototypeOf(read(11)['usage']), Object.prototype);
  assert.deepEqual(
    got.records.map(([line]) => line),
    [1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12, 13, 14, 15],
  );
  assert.deepEqual(got.codes, [
    'NUMBER_REPLACED:8',
    'INVALID_JSON:9',
    'INVALID_JSON:16',
    'INVALID_JSON:17',
    'INVALID_JSON:18',
    'INVALID_JSON:19',
  ]);
});

test('invalid UTF-8 in a skipped value of an assistant line is still reported', async () => {
  const [head, tail] = asst('m1').split('hi ');
  const path = write(Buffer.concat([Buffer.from(`${head}hi `), Buffer.from([0xff, 0xfe]), Buffer.from(`${tail}\n`)]));
  const got = await fast(path);
  assert.deepEqual(got.records, await full(path));
  assert.deepEqual(got.codes, ['INVALID_UTF8:1']);
});

test('lines past the buffer and the cap: grown for, or LINE_TOO_LONG with their place, the next lines read', async () => {
  const big = asst('big', {}, { content: [{ type: 'text', text: 'x'.repeat(9 * 1024 * 1024) }] });
  const path = write([asst('a'), big, asst('b')].join('\n'));
  // capped first, while the shared buffer (1 MiB) is shorter than the line: its bytes are dropped as read
  const capped = await fast(path, { maxLineBytes: 1024 * 1024 });
  assert.deepEqual(
    capped.records.map(([line, at]) => [line, at]),
    [
      [1, 0],
      [3, asst('a').length + big.length + 2],
    ],
  );
  const message = (d: Diagnostic[]) =>
    d.filter((x) => x.code === 'LINE_TOO_LONG').map((x) => [x.line, x.byteOffset, x.message]);
  assert.deepEqual(capped.diagnostics.length, 1);
  assert.deepEqual(
    message(capped.diagnostics),
    message((await readTranscript(path, { maxLineBytes: 1024 * 1024 })).diagnostics),
  );
  const whole = await fast(path);
  assert.deepEqual(whole.records, await full(path));
  assert.deepEqual(
    whole.records.map(([line]) => line),
    [1, 2, 3],
  );
  const small = await fast(path, { maxLineBytes: 100 });
  assert.deepEqual(small.codes, ['LINE_TOO_LONG:1', 'LINE_TOO_LONG:2', 'LINE_TOO_LONG:3']);
});

test('a byte range: the lines from `start` to `end`, numbered from `firstLine`', async () => {
  const lines = [asst('a'), asst('b'), asst('c'), asst('d')];
  const path = write(`${lines.join('\n')}\n`);
  const start = lines[0]!.length + 1;
  const end = start + lines[1]!.length + 1 + lines[2]!.length + 1;
  const got = await fast(path, { start, end, firstLine: 2 });
  assert.deepEqual(
    got.records.map(([line, at]) => [line, at]),
    [
      [2, start],
      [3, start + lines[1]!.length + 1],
    ],
  );
});

test('a UTF-16 file is read as the read stage reads it; a missing file is FILE_UNREADABLE', async () => {
  const text = `${asst('a')}\n${asst('b')}\n`;
  const path = write(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]));
  const got = await fast(path);
  assert.deepEqual(
    got.records.map(([line]) => line),
    [1, 2],
  );
  assert.deepEqual(got.codes, ['UTF16_FILE:']);
  assert.deepEqual((await fast(join(dir, 'none.jsonl'))).codes, ['FILE_UNREADABLE:']);
});

test('corpus: every assistant record as the full parse gives it', async () => {
  for (const file of corpusTranscripts()) {
    const got = await fast(file);
    assert.deepEqual(got.records, await full(file), file);
  }
});

test('a file counted in two byte ranges, groups kept between them, reports as countUsage over the file', async () => {
  const lines = [asst('a'), asst('b'), asst('a', { uuid: 'u-a2' }), asst('c', { isSidechain: true })];
  const path = write(`${lines.join('\n')}\n`);
  const cut = lines[0]!.length + lines[1]!.length + 2;
  const groups = new Map();
  await collectFileResponses(path, groups, undefined, { end: cut });
  assert.equal(groups.size, 2);
  await collectFileResponses(path, groups, undefined, { start: cut, firstLine: 3 });
  const whole = await countUsage([path], { timeZone: 'UTC' });
  assert.deepEqual(reportGroups(groups, { timeZone: 'UTC' }), whole);
  assert.equal(whole.total.responses, 3);
  assert.equal(whole.total.input_tokens, 9);
});
