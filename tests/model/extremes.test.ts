import assert from 'node:assert/strict';
import { test } from 'node:test';
import { maxOf, minOf } from '../../src/model/extremes.ts';

test('maxOf, minOf: any count of numbers (Math.max(...) throws over ~120,000), the bound for none', () => {
  // 300,000 numbers of 0–999, but one 999,999 and one -5
  const many = Array.from({ length: 300_000 }, (_, i) => (i === 123_456 ? 999_999 : i === 200_000 ? -5 : i % 1000));
  assert.throws(() => Math.max(...many), RangeError);
  assert.deepEqual([maxOf(many), minOf(many)], [999_999, -5]);
  assert.deepEqual([maxOf([]), minOf([]), maxOf([], 0), minOf([], 5)], [-Infinity, Infinity, 0, 5]);
  // the bound is also the least (greatest) result
  assert.deepEqual([maxOf([1, 2], 10), minOf([7, 9], 3), maxOf([-3, -1]), minOf([4, -2])], [10, 3, -1, -2]);
});
