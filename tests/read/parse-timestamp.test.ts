import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseTimestamp } from '../../src/read/parse-timestamp.ts';

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

test('every day of 1900–2100 at varied times, and the edges of a Date, agree with Date.parse', () => {
  const start = Date.UTC(1900, 0, 1);
  for (let t = start, i = 0; t < Date.UTC(2101, 0, 1); t += 86_400_000 + 3_599_999, i++) {
    const iso = new Date(t).toISOString();
    assert.equal(parseTimestamp(iso), t, iso);
  }
  for (const iso of [
    '0000-01-01T00:00:00.000Z',
    '9999-12-31T23:59:59.999Z',
    '1970-01-01T00:00:00.000Z',
    '2100-02-28T12:00:00.001Z',
    '2000-02-29T23:59:59.999Z',
  ]) {
    assert.equal(parseTimestamp(iso), Date.parse(iso), iso);
  }
  for (const bad of [
    '2026-02-30T00:00:00.000Z',
    '2100-02-29T00:00:00.000Z',
    '2026-04-31T00:00:00.000Z',
    '2026-01-01T24:00:00.000Z',
    '2026-01-01 00:00:00.000Z',
  ]) {
    assert.ok(Object.is(parseTimestamp(bad), Date.parse(bad)), bad);
  }
});
