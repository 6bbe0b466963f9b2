import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from './helpers/run-cli.ts';
import { assistant, text, user } from './helpers/transcript.ts';
import { tempDir } from './helpers/temp-dir.ts';

const run = runCli;

/**
 * Two sessions in two projects. Session A (sonnet 4.5, $3/$15/MTok, cache read $0.30): m1 on 2026-03-01
 * 10:00 UTC, 1,200,000 in / 10,000 out / 2,000,000 cache read; m2 on 03-02 09:00, 1,000 in / 500 out.
 * Session B (haiku 4.5, $1/$5): m3 on 03-02 12:00, 4,000 in / 1,000 out.
 * Session A's lines say it ran in `/work/app` (its folder `-work-app`); no line of session B has a cwd.
 */
function folder(): string {
  const root = tempDir('romp-usage-cli-');
  const write = (project: string, id: string, lines: unknown[], cwd?: string): void => {
    mkdirSync(join(root, project), { recursive: true });
    writeFileSync(
      join(root, project, `${id}.jsonl`),
      `${lines.map((l) => JSON.stringify({ ...(l as object), cwd })).join('\n')}\n`,
    );
  };
  const sec = (iso: string): number => (Date.parse(iso) - Date.parse('2026-03-01T10:00:00Z')) / 1000;
  write(
    '-work-app',
    'aaaa0000-0000-4000-8000-000000000001',
    [
      user('u1', null, 'first', sec('2026-03-01T09:59:00Z'), { sessionId: 'aaaa0000-0000-4000-8000-000000000001' }),
      assistant('a1', 'u1', text('ok'), 0, {
        mid: 'm1',
        stop: 'end_turn',
        usage: { input_tokens: 1_200_000, output_tokens: 10_000, cache_read_input_tokens: 2_000_000 },
        extra: { sessionId: 'aaaa0000-0000-4000-8000-000000000001' },
      }),
      user('u2', 'a1', 'second', sec('2026-03-02T08:59:00Z'), { sessionId: 'aaaa0000-0000-4000-8000-000000000001' }),
      assistant('a2', 'u2', text('ok'), sec('2026-03-02T09:00:00Z'), {
        mid: 'm2',
        stop: 'end_turn',
        usage: { input_tokens: 1000, output_tokens: 500 },
        extra: { sessionId: 'aaaa0000-0000-4000-8000-000000000001' },
      }),
      { type: 'custom-title', customTitle: 'Parser work', sessionId: 'aaaa0000-0000-4000-8000-000000000001' },
    ],
    '/work/app',
  );
  write('-work-site', 'bbbb0000-0000-4000-8000-000000000002', [
    user('v1', null, 'third', sec('2026-03-02T11:59:00Z'), { sessionId: 'bbbb0000-0000-4000-8000-000000000002' }),
    {
      ...assistant('b1', 'v1', text('ok'), sec('2026-03-02T12:00:00Z'), {
        mid: 'm3',
        stop: 'end_turn',
        usage: { input_tokens: 4000, output_tokens: 1000 },
        extra: { sessionId: 'bbbb0000-0000-4000-8000-000000000002' },
      }),
      message: {
        id: 'm3',
        role: 'assistant',
        model: 'claude-haiku-4-5',
        content: [text('ok')],
        stop_reason: 'end_turn',
        usage: { input_tokens: 4000, output_tokens: 1000 },
      },
    },
  ]);
  return root;
}

test('romp usage: a daily table with a header, thousands separators, models and a total row', async () => {
  const { code, out } = await run(['usage', '--projects', folder(), '--timezone', 'UTC']);
  assert.equal(code, 0);
  const lines = out.split('\n');
  assert.equal(lines[0], 'Usage by day (times in UTC; each API response counted once)');
  assert.match(
    out,
    /│ Date +│ Models +│ +Input │ +Output │ Cache Create │ +Cache Read │ Total Tokens │ Cost \(USD\) │/,
  );
  // m1: 1.2M×3 + 10k×15 + 2M×0.3 = 3.6 + 0.15 + 0.6 = $4.35
  assert.match(out, /│ 2026-03-01 │ - sonnet-4-5 │ 1,200,000 │ +10,000 │ +0 │ +2,000,000 │ +3,210,000 │ +\$4\.35 │/);
  // m2 (1000×3 + 500×15)/1e6 = $0.0105, m3 (4000×1 + 1000×5)/1e6 = $0.009: $0.02
  assert.match(out, /│ 2026-03-02 │ - haiku-4-5 +│ +5,000 │ +1,500 │ +0 │ +0 │ +6,500 │ +\$0\.02 │/);
  assert.match(out, /│ Total +│ +│ 1,205,000 │ +11,500 │ +0 │ +2,000,000 │ +3,216,500 │ +\$4\.37 │/);
});

test('romp usage session / project / weekly, --breakdown, --since/--until, --json rows', async () => {
  const root = folder();
  const session = (await run(['usage', 'session', '--projects', root, '--timezone', 'UTC'])).out;
  assert.match(session, /│ aaaa0000 +│ \/work\/app +│ 2026-03-02 09:00 │/);
  assert.match(session, /│ Parser work/);
  const breakdown = (await run(['usage', 'weekly', '--projects', root, '--timezone', 'UTC', '--breakdown'])).out;
  assert.match(breakdown, /│ 2026-W09 +│ - sonnet-4-5 │ 1,200,000 │/);
  assert.match(breakdown, /│ 2026-W10 +│ - haiku-4-5 +│ +5,000 │/);
  assert.match(breakdown, /│ {3}└ haiku-4-5 +│ +│ +4,000 │ +1,000 │/);
  const json = JSON.parse(
    (await run(['usage', 'project', '--projects', root, '--json', '--since', '20260302', '--until', '2026-03-02'])).out,
  ) as { report: string; rows: Array<{ key: string; totals: { responses: number } }>; total: { responses: number } };
  assert.deepEqual(
    [json.report, json.rows.map((r) => [r.key, r.totals.responses]), json.total.responses],
    [
      'project',
      [
        ['-work-app', 1],
        ['-work-site', 1],
      ],
      2,
    ],
  );
  // 30 February is no day: refused, not rolled over into 2 March
  const bad = await run(['usage', '--projects', root, '--until', '2026-02-30']);
  assert.equal(bad.code, 2);
  assert.equal(bad.err, 'romp: --until 2026-02-30: give a day as YYYY-MM-DD or YYYYMMDD\n');
});

test('romp usage session / project name a project by its cwd as romp ls does, the folder when no line has one', async () => {
  const root = folder();
  const session = (await run(['usage', 'session', '--projects', root, '--timezone', 'UTC'])).out;
  assert.match(session, /│ aaaa0000 +│ \/work\/app +│ 2026-03-02 09:00 │/);
  assert.match(session, /│ bbbb0000 +│ -work-site +│ 2026-03-02 12:00 │/);
  const project = (await run(['usage', 'project', '--projects', root, '--timezone', 'UTC'])).out;
  assert.match(project, /│ \/work\/app +│ - sonnet-4-5 │ 1,201,000 │/);
  assert.match(project, /│ -work-site +│ - haiku-4-5 +│ +4,000 │/);
  // romp ls names them the same way
  const ls = (await run(['ls', '--projects', root, '--timezone', 'UTC'])).out;
  assert.match(ls, /\/work\/app +aaaa0000-/);
  assert.match(ls, /-work-site +bbbb0000-/);
  // --json keeps the folder (`key`, `project`) and adds `cwd`
  type Rows = { rows: Array<{ key: string; project?: string; cwd: string }> };
  const pick = (out: string): Array<[string, string | undefined, string]> =>
    (JSON.parse(out) as Rows).rows.map((r) => [r.key, r.project, r.cwd]);
  assert.deepEqual(pick((await run(['usage', 'project', '--projects', root, '--json'])).out), [
    ['-work-app', undefined, '/work/app'],
    ['-work-site', undefined, ''],
  ]);
  assert.deepEqual(pick((await run(['usage', 'session', '--projects', root, '--json'])).out), [
    ['aaaa0000-0000-4000-8000-000000000001', '-work-app', '/work/app'],
    ['bbbb0000-0000-4000-8000-000000000002', '-work-site', ''],
  ]);
});

test('romp usage leaves out the cache columns when the terminal is too narrow; --prices overrides one field', async () => {
  const root = folder();
  const narrow = (await run(['usage', '--projects', root, '--timezone', 'UTC'], 80)).out;
  assert.doesNotMatch(narrow, /Cache Read/);
  assert.ok(
    narrow.split('\n').every((l) => l.length <= 80),
    narrow,
  );
  const prices = join(root, 'prices.json');
  writeFileSync(prices, JSON.stringify({ 'claude-sonnet-4-5': { cache_read: 0 } }));
  // m1 without its cache read: 3.6 + 0.15 = $3.75
  assert.match(
    (await run(['usage', '--projects', root, '--timezone', 'UTC', '--prices', prices])).out,
    /│ 2026-03-01 │ .* \$3\.75 │/,
  );
});

test("usage session: each session's cwd is its own file's, not its folder's nor another folder's", async () => {
  const root = tempDir('romp-usage-cwd-');
  const write = (project: string, name: string, id: string, cwd: string, at: string, mid: string): void => {
    mkdirSync(join(root, project), { recursive: true });
    const sec = (Date.parse(at) - Date.parse('2026-03-01T10:00:00Z')) / 1000;
    const extra = { sessionId: id, cwd };
    const lines = [
      user(`u-${mid}`, null, 'go', sec - 1, extra),
      assistant(`a-${mid}`, `u-${mid}`, text('ok'), sec, { mid, stop: 'end_turn', extra }),
    ];
    writeFileSync(join(root, project, `${name}.jsonl`), `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
  };
  const [a, b, c] = ['aaaa1111', 'bbbb2222', 'cccc3333'].map((p) => `${p}-0000-4000-8000-000000000000`) as [
    string,
    string,
    string,
  ];
  // -work-app's newest session ran in /work/app: its folder's cwd
  write('-work-app', a, a, '/work/app', '2026-03-01T10:00:00Z', 'm1');
  // a file renamed by hand: its id is not its name
  write('-work-app', 'renamed', c, '/elsewhere/renamed', '2026-03-01T09:00:00Z', 'm2');
  // one session in two folders, its first response in -work-app's file (listed after -aaa-other's)
  write('-work-app', b, b, '/work/app/sub', '2026-03-01T08:00:00Z', 'm3');
  write('-aaa-other', b, b, '/other', '2026-03-01T11:00:00Z', 'm4');
  const r = await run(['usage', 'session', '--projects', root, '--json', '--no-index', '--timezone', 'UTC']);
  assert.equal(r.code, 0, r.err);
  const rows = (JSON.parse(r.out) as { rows: Array<Record<string, unknown>> }).rows;
  // before: /other (the folder listed first holding the id) and /work/app (the folder's) for the renamed file
  assert.deepEqual(
    rows.map((row) => [row['key'], row['project'], row['cwd'], 'file' in row]),
    [
      [b, '-work-app', '/work/app/sub', false],
      [c, '-work-app', '/elsewhere/renamed', false],
      [a, '-work-app', '/work/app', false],
    ],
  );
});
