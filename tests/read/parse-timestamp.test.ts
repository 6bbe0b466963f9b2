import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseTimestamp } from '../../src/session/parse-timestamp.ts';

test('ISO timestamps read without Date.parse agree with Date.parse', () => {
  for (const iso of ['2026-02-09T06:00:27.262Z', '1999-12-31T23:59:59.999Z', '2024-02-29T00:00:00.000Z']) {
    assert.equal(parseTimestamp(iso), Date.parse(iso));
  }
});

test('other forms fall back to Date.parse; non-dates are NaN', () => {
  assert.equal(parseTimestamp('2026-02-09T06:00:27Z'), Date.parse('2026-02-09T06:00:27Z'));
  assert.equal(parseTimestamp('2026-02-09T06:00:27.262+01:00'), Date.parse('2026-02-09T05:00:27.262Z'));
  assert.equal(parseTimestamp(1772359200000), 1772359200000);
  assert.ok(Number.isNaN(parseTimestamp('2026-13-09T06:00:27.262Z')));
  assert.ok(Number.isNaN(parseTimestamp('[trimmed for fixture]')));
  assert.ok(Number.isNaN(parseTimestamp(undefined)));
});
