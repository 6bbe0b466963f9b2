import assert from 'node:assert/strict';
import { test } from 'node:test';
import { threadsForBytes, USAGE_BYTES_PER_THREAD, usageThreads } from '../../src/usage/usage-threads.ts';

test('a thread more per core the load leaves idle, besides this one', () => {
  assert.equal(usageThreads(2, 0.2), 2);
  assert.equal(usageThreads(2, 0.6), 1);
  assert.equal(usageThreads(2, 12), 1);
  assert.equal(usageThreads(8, 3), 5);
  assert.equal(usageThreads(8, 0), 8);
  assert.equal(usageThreads(1, 0), 1);
});

test('romp usage reads in a second thread only for 600 MB or more (one thread per 400 MB, rounded)', () => {
  assert.equal(threadsForBytes(404_000_000, 2, USAGE_BYTES_PER_THREAD), 1);
  assert.equal(threadsForBytes(599_000_000, 2, USAGE_BYTES_PER_THREAD), 1);
  assert.equal(threadsForBytes(606_000_000, 2, USAGE_BYTES_PER_THREAD), 2);
  assert.equal(threadsForBytes(5_000_000_000, 2, USAGE_BYTES_PER_THREAD), 2);
  assert.equal(threadsForBytes(1_000_000_000, 8, USAGE_BYTES_PER_THREAD), 3);
  assert.equal(threadsForBytes(0, 2, USAGE_BYTES_PER_THREAD), 1);
  // no bytes rule: as many as the machine leaves
  assert.equal(threadsForBytes(10, 2, 0), 2);
});
