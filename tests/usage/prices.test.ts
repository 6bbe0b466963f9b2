import assert from 'node:assert/strict';
import { test } from 'node:test';
import { priceFor } from '../../src/usage/prices.ts';

test('prices of the pricing page: Opus 4.7/4.8 at the Opus 4.5 rates, cheaper cache reads for Fable/Mythos 5.1, none for Haiku 5.5', () => {
  assert.deepEqual(priceFor('claude-opus-4-7'), {
    input: 5,
    output: 25,
    cache_write_5m: 6.25,
    cache_write_1h: 10,
    cache_read: 0.5,
  });
  assert.deepEqual(priceFor('claude-opus-4-8-20260528'), priceFor('claude-opus-4-5'));
  assert.deepEqual(
    [
      priceFor('claude-fable-5-1')?.cache_read,
      priceFor('claude-mythos-5-1[1m]')?.cache_read,
      priceFor('claude-fable-5')?.cache_read,
    ],
    [0.25, 0.25, 1],
  );
  assert.deepEqual([priceFor('claude-sonnet-4-6')?.input, priceFor('claude-sonnet-5-5')?.cache_write_1h], [3, 4]);
  // priced by prompt length (two bands): a per-response table would be wrong for one band
  assert.equal(priceFor('claude-haiku-5-5'), undefined);
});
