import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { rompProgram } from '../src/cli/cli.ts';
import { isoTime } from '../src/cli/iso-time.ts';
import { UNKNOWN_TIME } from '../src/model/time.ts';
import { runCli } from './helpers/run-cli.ts';
import { tempDir } from './helpers/temp-dir.ts';
import { assistant, text, toolResult, toolUse, user, writeJsonl } from './helpers/transcript.ts';

/** A prompt at 2026-02-11T21:46:05.123Z, a Bash call, its result, the reply: one turn, one tool call. */
function session(): string {
  const at = (time: string): { timestamp: string } => ({ timestamp: `2026-02-11T${time}Z` });
  return writeJsonl([
    user('u1', null, 'list the files', 0, at('21:46:05.123')),
    assistant('a1', 'u1', toolUse('t1', 'Bash', { command: 'ls' }), 0, {
      mid: 'm1',
      stop: 'tool_use',
      extra: at('21:46:07.000'),
    }),
    user('r1', 'a1', [toolResult('t1', 'a.ts')], 0, at('21:46:08.500')),
    assistant('a2', 'r1', text('done'), 0, { mid: 'm2', stop: 'end_turn', extra: at('21:46:10.250') }),
  ]);
}

/** Runs `body` with the machine's zone (`TZ`) set to `zone`, then puts it back. */
async function inZone(zone: string, body: () => Promise<void> | void): Promise<void> {
  const saved = process.env['TZ'];
  try {
    process.env['TZ'] = zone;
    await body();
  } finally {
    if (saved === undefined) delete process.env['TZ'];
    else process.env['TZ'] = saved;
  }
}

async function json(args: string[]): Promise<unknown> {
  const { code, out, err } = await runCli(args);
  assert.equal(code, 0, err);
  return JSON.parse(out);
}

test('isoTime: the offset of the zone at that instant, across DST switches and :30 / :45 offsets', () => {
  const cases: Array<[string, string, string]> = [
    ['Asia/Kathmandu', '2026-02-11T21:46:05.123Z', '2026-02-12T03:31:05.123+05:45'],
    // Newfoundland springs forward at 02:00 NST (05:30Z) and falls back at 02:00 NDT (04:30Z)
    ['America/St_Johns', '2026-03-08T05:29:59.999Z', '2026-03-08T01:59:59.999-03:30'],
    ['America/St_Johns', '2026-03-08T05:30:00.000Z', '2026-03-08T03:00:00.000-02:30'],
    ['America/St_Johns', '2026-11-01T04:29:59.999Z', '2026-11-01T01:59:59.999-02:30'],
    ['America/St_Johns', '2026-11-01T04:30:00.000Z', '2026-11-01T01:00:00.000-03:30'],
    // Lord Howe Island moves by half an hour: 02:00 +11:00 back to 01:30 +10:30, and on again in October
    ['Australia/Lord_Howe', '2026-04-04T14:59:59.999Z', '2026-04-05T01:59:59.999+11:00'],
    ['Australia/Lord_Howe', '2026-04-04T15:00:00.000Z', '2026-04-05T01:30:00.000+10:30'],
    ['Australia/Lord_Howe', '2026-10-03T15:30:00.000Z', '2026-10-04T02:30:00.000+11:00'],
    ['UTC', '2026-02-11T21:46:05.123Z', '2026-02-11T21:46:05.123+00:00'],
    ['Europe/Paris', '2026-03-29T00:59:59.999Z', '2026-03-29T01:59:59.999+01:00'],
    ['Europe/Paris', '2026-03-29T01:00:00.000Z', '2026-03-29T03:00:00.000+02:00'],
  ];
  for (const [zone, utc, expected] of cases) assert.equal(isoTime(zone)(Date.parse(utc)), expected, zone);
  const kathmandu = isoTime('Asia/Kathmandu');
  for (const unknown of [UNKNOWN_TIME, NaN, null, 8.64e15 + 1]) assert.equal(kathmandu(unknown), null);
});

test('isoTime: every hour of 2026 reads back as its instant, with the offset Intl gives', () => {
  for (const zone of ['America/St_Johns', 'Australia/Lord_Howe', 'Asia/Kathmandu', 'Pacific/Apia', 'Europe/Paris']) {
    const iso = isoTime(zone);
    const named = new Intl.DateTimeFormat('en', { timeZone: zone, timeZoneName: 'longOffset' });
    for (let t = Date.UTC(2026, 0, 1); t < Date.UTC(2027, 0, 1); t += 3_667_123) {
      const text = iso(t) ?? '';
      assert.equal(Date.parse(text), t, `${zone} ${text}`);
      const offset = named.formatToParts(t).find((p) => p.type === 'timeZoneName')?.value;
      assert.equal(`GMT${text.slice(-6)}`.replace('GMT+00:00', 'GMT'), offset, `${zone} ${text}`);
    }
  }
});

test("isoTime without a zone: the machine's (TZ), from Date's own offset", () =>
  inZone('America/St_Johns', () => {
    assert.equal(isoTime()(Date.parse('2026-02-11T21:46:05.123Z')), '2026-02-11T18:16:05.123-03:30');
    assert.equal(isoTime()(Date.parse('2026-07-01T12:00:00.000Z')), '2026-07-01T09:30:00.000-02:30');
  }));

test('turns, tools, segments --json: times in --timezone as ISO with offset; durations stay ms', async () => {
  const file = session();
  const zone = ['--timezone', 'Asia/Kathmandu'];
  const turns = (await json(['turns', file, '--json', ...zone])) as Array<Record<string, unknown>>;
  assert.deepEqual(
    turns.map((t) => [t['t'], t['end'], t['duration_ms']]),
    [['2026-02-12T03:31:05.123+05:45', '2026-02-12T03:31:10.250+05:45', 5_127]],
  );
  const tools = (await json(['tools', file, '--json', ...zone])) as Array<Record<string, unknown>>;
  assert.deepEqual(
    tools.map((c) => [c['name'], c['t'], c['end'], c['duration_ms']]),
    [['Bash', '2026-02-12T03:31:07.000+05:45', '2026-02-12T03:31:08.500+05:45', 1_500]],
  );
  const segments = (await json(['segments', file, '--json', ...zone])) as Array<{
    t: string;
    end: string;
    atoms: Array<{ t: number }>;
  }>;
  assert.deepEqual(
    segments.map((s) => [s.t, s.end, s.atoms[0]?.t]),
    // the segment's own times in the zone; its atoms are the model's, epoch ms, as romp json prints them
    [['2026-02-12T03:31:05.123+05:45', '2026-02-12T03:31:10.250+05:45', Date.parse('2026-02-11T21:46:05.123Z')]],
  );
  // the model dump is the library's Session as is: epoch ms, whatever --timezone says
  const dumped = (await json(['json', file, ...zone])) as { turns: Array<{ t: number; end: number }> };
  assert.deepEqual(
    dumped.turns.map((t) => [t.t, t.end]),
    [[Date.parse('2026-02-11T21:46:05.123Z'), Date.parse('2026-02-11T21:46:10.250Z')]],
  );
});

test("turns --json without --timezone: the machine's zone", async () => {
  const file = session();
  await inZone('America/St_Johns', async () => {
    const turns = (await json(['turns', file, '--json'])) as Array<{ t: string }>;
    assert.deepEqual(
      turns.map((t) => t.t),
      ['2026-02-11T18:16:05.123-03:30'],
    );
  });
});

test('usage blocks / daily --json: a block keyed by its start in the zone, rows first / last / end as ISO', async () => {
  const file = session();
  const zone = ['--timezone', 'Asia/Kathmandu'];
  type Report = { timeZone: string; rows: Array<{ key: string; first: string; last: string; end?: string }> };
  const blocks = (await json(['usage', 'blocks', file, '--json', ...zone])) as Report;
  // the block starts on the first response's hour, 21:00Z, and lasts 5 h
  assert.deepEqual(
    blocks.rows.map((r) => [r.key, r.first, r.last, r.end]),
    [
      [
        '2026-02-12T02:45:00.000+05:45',
        '2026-02-12T03:31:07.000+05:45',
        '2026-02-12T03:31:10.250+05:45',
        '2026-02-12T07:45:00.000+05:45',
      ],
    ],
  );
  const daily = (await json(['usage', 'daily', file, '--json', ...zone])) as Report;
  assert.deepEqual(
    [daily.timeZone, ...daily.rows.map((r) => [r.key, r.first, 'end' in r])],
    ['Asia/Kathmandu', ['2026-02-12', '2026-02-12T03:31:07.000+05:45', false]],
  );
});

test("search --json and ls --json: a hit's t, a listing's first and last in the zone", async () => {
  const projects = tempDir('romp-projects-');
  mkdirSync(join(projects, '-work-demo'));
  copyFileSync(session(), join(projects, '-work-demo', 'fixture-session.jsonl'));
  const home = tempDir('romp-home-');
  const zone = ['--timezone', 'America/St_Johns'];
  const common = ['--projects', projects, '--romp-home', home, '--json', ...zone];
  const hits = (await json(['search', 'files', '--no-progress', ...common])) as Array<{ uuid: string; t: string }>;
  assert.deepEqual(
    hits.map((h) => [h.uuid, h.t]),
    [['u1', '2026-02-11T18:16:05.123-03:30']],
  );
  const listed = (await json(['ls', ...common])) as Array<{ first: string; last: string }>;
  assert.deepEqual(
    listed.map((s) => [s.first, s.last]),
    [['2026-02-11T18:16:05.123-03:30', '2026-02-11T18:16:10.250-03:30']],
  );
});

test('an unknown --timezone is a usage error (exit 2) on every command that takes one', async () => {
  const program = rompProgram({ stdout: { write: () => true }, stderr: { write: () => true } }, () => {});
  const zoned = program.commands
    .filter((c) => c.options.some((o) => o.long === '--timezone'))
    .map((c) => c.name())
    .sort();
  assert.deepEqual(zoned, [
    'cache',
    'cat',
    'export',
    'html',
    'json',
    'ls',
    'resume-check',
    'search',
    'segments',
    'serve',
    'show',
    'stream',
    'tools',
    'turns',
    'usage',
    'watch',
  ]);
  for (const name of zoned) {
    const { code, out, err } = await runCli([name, ...(name === 'serve' ? [] : ['x']), '--timezone', 'Mars/Olympus']);
    assert.equal(code, 2, name);
    assert.equal(out, '', name);
    assert.match(err, /Mars\/Olympus is not an IANA time zone/, name);
  }
});
