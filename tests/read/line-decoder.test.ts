import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LineDecoder } from '../../src/read/line-decoder.ts';

interface Got {
  lines: Array<[number, number, string]>;
  oversize: Array<[number, number, number]>;
}

function decode(chunks: Buffer[], max?: number, flush = true): Got {
  const got: Got = { lines: [], oversize: [] };
  const decoder = new LineDecoder(
    (buf, start, end, line, offset) => got.lines.push([line, offset, buf.toString('utf8', start, end)]),
    (line, offset, length) => got.oversize.push([line, offset, length]),
    max,
  );
  for (const c of chunks) decoder.push(c);
  if (flush) decoder.flush();
  return got;
}

const input = Buffer.from('{"a":"é€😀"}\r\n{"b":2}\n\nlast', 'utf8');

// line 1 is 6 + 2 (é) + 3 (€) + 4 (😀) + 2 + 1 (\r) = 18 bytes, so line 2 starts at 19
test('splitting the input at every byte offset gives the same lines and offsets', () => {
  const whole = decode([input]);
  assert.deepEqual(
    whole.lines.map(([l, o]) => [l, o]),
    [
      [1, 0],
      [2, 19],
      [3, 27],
      [4, 28],
    ],
  );
  assert.equal(whole.lines[0]?.[2], '{"a":"é€😀"}\r');
  for (let cut = 0; cut <= input.length; cut++) {
    assert.deepEqual(decode([input.subarray(0, cut), input.subarray(cut)]), whole, `cut at ${cut}`);
  }
  const bytes = [...input].map((b) => Buffer.from([b]));
  assert.deepEqual(decode(bytes), whole, 'one byte per chunk');
});

test('a last line without newline is held until flush, and only then handed over', () => {
  const held = decode([Buffer.from('{"a":1}\n{"b"')], undefined, false);
  assert.deepEqual(held.lines, [[1, 0, '{"a":1}']]);
  const flushed = decode([Buffer.from('{"a":1}\n{"b"')]);
  assert.deepEqual(flushed.lines.at(-1), [2, 8, '{"b"']);
});

test('a line over the cap is reported once with its length, and the next line still comes', () => {
  const big = Buffer.from(`${'x'.repeat(50)}\n{"ok":1}\n`);
  const got = decode([big.subarray(0, 20), big.subarray(20, 40), big.subarray(40)], 16);
  assert.deepEqual(got.oversize, [[1, 0, 50]]);
  assert.deepEqual(got.lines, [[2, 51, '{"ok":1}']]);
});
