/**
 * The CLI's plain-code printers (no `Intl` at start-up): counts with thousands separators as
 * `Intl.NumberFormat('en-US')` prints them, a noun that agrees with its count, and local times labelled
 * by the machine zone's UTC offsets.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatCount, plural } from '../src/text/format-count.ts';
import { timeFormat } from '../src/cli/format-time.ts';

test('formatCount groups digits by three as Intl en-US does; plural says 1 turn, 2 turns', () => {
  const intl = new Intl.NumberFormat('en-US');
  for (const n of [0, 7, 999, 1000, 12_345, 1_234_567, 987_654_321_012, -1234.5, 12.3456, 0.5])
    assert.equal(formatCount(n), intl.format(n), String(n));
  assert.equal(formatCount(Number.NaN), 'NaN');
  assert.deepEqual(
    [plural(1, 'turn'), plural(0, 'turn'), plural(2, 'turn'), plural(1234, 'prompt'), plural(1, 'match', 'matches')],
    ['1 turn', '0 turns', '2 turns', '1,234 prompts', '1 match'],
  );
});

test("timeFormat without a zone prints the machine's local time, labelled by its UTC offsets", () => {
  const saved = process.env['TZ'];
  const t = Date.UTC(2026, 2, 1, 10, 5); // 2026-03-01 10:05 UTC
  const summer = Date.UTC(2026, 6, 1, 10, 5);
  try {
    process.env['TZ'] = 'UTC';
    assert.deepEqual([timeFormat().zone, timeFormat().format(t)], ['UTC', '2026-03-01 10:05']);
    process.env['TZ'] = 'Asia/Tokyo';
    assert.deepEqual([timeFormat().zone, timeFormat().format(t)], ['UTC+09:00', '2026-03-01 19:05']);
    process.env['TZ'] = 'Europe/Paris';
    const paris = timeFormat();
    assert.deepEqual(
      [paris.zone, paris.format(t), paris.format(summer)],
      ['UTC+01:00/+02:00', '2026-03-01 11:05', '2026-07-01 12:05'],
    );
    process.env['TZ'] = 'America/St_Johns';
    assert.equal(timeFormat().zone, 'UTC-03:30/-02:30');
    assert.equal(timeFormat().format(Number.NaN), 'time unknown');
  } finally {
    if (saved === undefined) delete process.env['TZ'];
    else process.env['TZ'] = saved;
  }
  // a named zone keeps its IANA name
  assert.deepEqual(
    [timeFormat('Asia/Tokyo').zone, timeFormat('Asia/Tokyo').format(t)],
    ['Asia/Tokyo', '2026-03-01 19:05'],
  );
  // as the user named it, though Node 20's ICU resolves it to an older alias; Intl's spelling of the case
  assert.deepEqual(
    [timeFormat('Asia/Kolkata').zone, timeFormat('Europe/Kyiv').zone, timeFormat('utc').zone],
    ['Asia/Kolkata', 'Europe/Kyiv', 'UTC'],
  );
  assert.equal(timeFormat('Asia/Kolkata').format(t), '2026-03-01 15:35');
});
