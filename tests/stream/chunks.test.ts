import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import type { RawRecord } from '../../src/read/parse-line.ts';
import { decodeStream } from '../../src/stream/decode-stream.ts';
import { fromStream, type StreamSnapshot } from '../../src/stream/from-stream.ts';
import { sAssistant, sResult, sUser } from '../helpers/stream.ts';
import { text, toolResult, toolUse } from '../helpers/transcript.ts';

const lines = [
  sUser('p1', 'héllo wörld — 😀 multi-byte', { isReplay: true }),
  sAssistant('a1', 'm1', toolUse('t1', 'Read')),
  sUser('r1', [toolResult('t1', '中文内容')]),
  sAssistant('a2', 'm2', text('done ✓')),
  sResult('res'),
  sUser('p2', 'again'),
];
const bytes = Buffer.from(lines.map((l) => JSON.stringify(l)).join('\r\n') + '\r\n', 'utf8');

async function sessionOf(chunks: Uint8Array[]): Promise<unknown> {
  let clock = 0;
  const messages: RawRecord[] = [];
  for await (const m of decodeStream(chunks)) messages.push(m);
  let last: StreamSnapshot | undefined;
  for await (const s of fromStream(messages, { now: () => ++clock })) last = s;
  return last?.session;
}

function split(buf: Buffer, sizes: number[]): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  let pos = 0;
  for (const size of sizes) {
    if (pos >= buf.length) break;
    chunks.push(buf.subarray(pos, pos + size));
    pos += size;
  }
  if (pos < buf.length) chunks.push(buf.subarray(pos));
  return chunks;
}

test('a stream fed whole and fed in random chunks (splitting characters and CRLF) gives deep-equal sessions', async () => {
  const whole = await sessionOf([bytes]);
  assert.equal((whole as { turns: unknown[] }).turns.length, 2);
  await fc.assert(
    fc.asyncProperty(fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 200 }), async (sizes) => {
      assert.deepEqual(await sessionOf(split(bytes, sizes)), whole);
    }),
    { numRuns: 300 },
  );
});
