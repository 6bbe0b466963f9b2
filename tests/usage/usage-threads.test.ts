import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runnableNow, usageThreads } from '../../src/usage/usage-threads.ts';

test('without a count of what runs now: a thread more per core the load leaves idle, besides this one', () => {
  assert.equal(usageThreads(2, 0.2, null), 2);
  assert.equal(usageThreads(2, 0.6, null), 1);
  assert.equal(usageThreads(2, 12, null), 1);
  assert.equal(usageThreads(8, 3, null), 5);
  assert.equal(usageThreads(8, 0, null), 8);
  assert.equal(usageThreads(1, 0, null), 1);
});

test('with it: a thread more per core idle now, the 1-minute load counting one busy core at most too many', () => {
  assert.equal(usageThreads(2, 1.1, 1), 2, 'a run just ended holds the load near 1: idle now');
  assert.equal(usageThreads(2, 1.1, 2), 1, 'another task runs now');
  assert.equal(usageThreads(2, 0.2, 3), 1);
  assert.equal(usageThreads(2, 2.5, 1), 1, 'a busy minute: a quiet instant is not trusted');
  assert.equal(usageThreads(8, 3, 4), 5);
  assert.equal(usageThreads(8, 0, 1), 8);
  assert.equal(usageThreads(1, 0, 1), 1);
});

test('what runs now counts this thread, where Linux says', () => {
  const n = runnableNow();
  if (process.platform === 'linux') assert.ok(n !== undefined && n >= 1);
});
