/**
 * `--since`/`--until` days start at the zone's midnight (`dayStartIn`): `romp search` reads them in the zone it prints
 * its times in, as `romp usage` does, so a hit printed on a day is kept by that day's range.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { dayStartIn } from '../src/cli/day-option.ts';
import { runCli } from './helpers/run-cli.ts';
import { tempDir } from './helpers/temp-dir.ts';
import { assistant, text, user } from './helpers/transcript.ts';

test('dayStartIn: the first instant of a day in a zone, on days of 23 hours and days whose midnight is skipped', () => {
  assert.equal(dayStartIn('2026-03-01', 'UTC'), Date.parse('2026-03-01T00:00:00Z'));
  assert.equal(dayStartIn('2026-03-02', 'Pacific/Kiritimati'), Date.parse('2026-03-01T10:00:00Z'));
  assert.equal(dayStartIn('2026-02-28', 'Pacific/Pago_Pago'), Date.parse('2026-02-28T11:00:00Z'));
  // Paris moves to summer time on 29 March 2026: that day has 23 hours
  assert.equal(dayStartIn('2026-03-29', 'Europe/Paris'), Date.parse('2026-03-28T23:00:00Z'));
  assert.equal(dayStartIn('2026-03-30', 'Europe/Paris'), Date.parse('2026-03-29T22:00:00Z'));
  // Santiago skips from 00:00 to 01:00 on 6 September 2026: the day starts at 01:00 -03
  assert.equal(dayStartIn('2026-09-06', 'America/Santiago'), Date.parse('2026-09-06T04:00:00Z'));
  // the machine's zone: Date's own local midnight
  assert.equal(dayStartIn('2026-03-01', undefined), new Date(2026, 2, 1).getTime());
});

test('romp search --since/--until: the days of --timezone, the zone the hits are printed in', async () => {
  const dir = tempDir('romp-search-days-');
  mkdirSync(join(dir, '-work-demo'));
  // the prompt at 2026-03-01 10:00 UTC: 2026-03-02 00:00 in Kiritimati (+14), 2026-02-28 23:00 in Pago Pago (-11)
  const lines = [
    user('u1', null, 'where did the okapi go', 0),
    assistant('a1', 'u1', text('Nowhere.'), 1, { mid: 'm1', stop: 'end_turn' }),
  ];
  writeFileSync(
    join(dir, '-work-demo', 's1.jsonl'),
    lines.map((l) => JSON.stringify({ ...l, sessionId: 's1' })).join('\n') + '\n',
  );
  const home = tempDir('romp-home-');
  const hits = async (...range: string[]): Promise<string[]> => {
    const r = await runCli([
      'search',
      'okapi',
      '--author',
      'human',
      '--projects',
      dir,
      '--romp-home',
      home,
      '--no-progress',
      '--json',
      ...range,
    ]);
    assert.equal(r.code, 0, r.err);
    return (JSON.parse(r.out) as Array<{ t: string }>).map((h) => h.t);
  };
  const kiritimati = ['--timezone', 'Pacific/Kiritimati'];
  assert.deepEqual(await hits(...kiritimati, '--since', '2026-03-02', '--until', '2026-03-02'), [
    '2026-03-02T00:00:00.000+14:00',
  ]);
  assert.deepEqual(await hits(...kiritimati, '--until', '2026-03-01'), []);
  const pago = ['--timezone', 'Pacific/Pago_Pago'];
  assert.deepEqual(await hits(...pago, '--since', '2026-02-28', '--until', '20260228'), [
    '2026-02-28T23:00:00.000-11:00',
  ]);
  assert.deepEqual(await hits(...pago, '--since', '2026-03-01'), []);
});
