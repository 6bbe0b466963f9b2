import assert from 'node:assert/strict';
import { test } from 'node:test';
import { dayFormatter } from '../../src/usage/day-formatter.ts';

const ZONES = [
  'UTC',
  'Europe/Paris',
  'America/St_Johns', // -3:30, DST
  'Asia/Kathmandu', // +5:45
  'Australia/Lord_Howe', // 30-minute DST
  'Pacific/Apia', // skipped 2011-12-30
  'Pacific/Kiritimati', // +14
  'America/Sao_Paulo',
];

/** Asserts that `dayOf` gives Intl's days in `timeZone` (undefined: the machine's). */
function sameDays(dayOf: (t: number) => string, timeZone: string | undefined, name: string): void {
  const intl = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
  // every 61 minutes 7 seconds over 2011-2012, and over a stretch of 2200 (outside the offset path)
  for (const [from, to] of [
    [Date.UTC(2011, 0, 1), Date.UTC(2013, 0, 1)],
    [Date.UTC(2199, 11, 1), Date.UTC(2200, 1, 1)],
  ] as const)
    for (let t = from; t < to; t += 3_667_000) assert.equal(dayOf(t), intl.format(t), `${name} ${t}`);
}

test('days by offset are the days Intl gives, across transitions and odd offsets', () => {
  for (const timeZone of ZONES) sameDays(dayFormatter(timeZone), timeZone, timeZone);
  const paris = dayFormatter('Europe/Paris');
  assert.equal(paris(Date.UTC(2026, 2, 28, 23, 0)), '2026-03-29'); // 00:00 CET
  assert.equal(paris(Date.UTC(2026, 2, 28, 22, 59, 59, 999)), '2026-03-28');
  assert.equal(dayFormatter('Pacific/Apia')(Date.UTC(2011, 11, 30, 10, 0)), '2011-12-31'); // the 30th skipped
});

test("the machine's zone (TZ), from Date's offsets: the days Intl gives in it", () => {
  const before = process.env['TZ'];
  try {
    for (const zone of ZONES) {
      process.env['TZ'] = zone; // Node resets Date's and ICU's default zone
      sameDays(dayFormatter(undefined), undefined, `TZ=${zone}`);
    }
    process.env['TZ'] = 'Europe/Paris';
    assert.equal(dayFormatter(undefined)(Date.UTC(2026, 2, 28, 23, 0)), '2026-03-29');
  } finally {
    if (before === undefined) delete process.env['TZ'];
    else process.env['TZ'] = before;
  }
});
