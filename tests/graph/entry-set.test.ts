import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Entry } from '../../src/graph/entry.ts';
import { EntrySet } from '../../src/graph/entry-set.ts';

const at = (pos: number): Entry => ({ pos, uuid: `u${pos}` }) as Entry;

test('EntrySet: members by position, grows past its first capacity, counts each entry once', () => {
  const set = new EntrySet(2);
  set.add(at(0));
  set.add(at(40));
  set.add(at(40));
  assert.deepEqual(
    [set.has(at(0)), set.has(at(1)), set.has(at(40)), set.has(at(41)), set.has(at(-1)), set.size],
    [true, false, true, false, false, 2],
  );
  assert.throws(() => set.add(at(-1)), RangeError);
});
