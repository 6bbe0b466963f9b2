import assert from 'node:assert/strict';
import { test } from 'node:test';
import { usageThreads } from '../../src/usage/usage-threads.ts';

test('a thread more per core the load leaves idle, besides this one', () => {
  assert.equal(usageThreads(2, 0.2), 2);
  assert.equal(usageThreads(2, 0.6), 1);
  assert.equal(usageThreads(2, 12), 1);
  assert.equal(usageThreads(8, 3), 5);
  assert.equal(usageThreads(8, 0), 8);
  assert.equal(usageThreads(1, 0), 1);
});
