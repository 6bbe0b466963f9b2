import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { test } from 'node:test';
import { cli } from '../src/cli/cli.ts';
import type { Session } from '../src/model/types.ts';
import { user, writeJsonl } from './helpers/transcript.ts';
import { EXAMPLE_SESSION as EXAMPLE } from '../src/cli/load-session.ts';
import { tempDir } from './helpers/temp-dir.ts';
import { runCli } from './helpers/run-cli.ts';

test('romp show --example outlines the bundled example: rewind dropped, compaction, parallel tools', async () => {
  const { code, out } = await runCli(['show', '--example', '--timezone', 'UTC']);
  assert.equal(code, 0);
  assert.match(out, /^Fix the parser TODO {2}7f3c2a10-5b4e-4d8a-9c61-2e0f8b7d4a93$/m);
  assert.match(
    out,
    /^4 turns, 22 atoms, 10 other records; times in UTC; tokens in = input \+ cache write \+ cache read/m,
  );
  assert.match(
    out,
    /^#1 {2}2026-03-01 10:00 {2}human {2}completed {2}10 atoms {2}tokens in 57,026 out 273 {2}tools Grep, Read, Edit$/m,
  );
  assert.doesNotMatch(out, /Now add a test/, 'the rewound prompt is not on the active path');
  assert.match(out, /compacted 1×/);
});

test('romp json prints the Session; --view context starts at the last compaction', async () => {
  const full = await runCli(['json', '--example']);
  const session = JSON.parse(full.out) as Session;
  assert.deepEqual(
    session.turns.map((t) => [t.trigger === null ? null : t.atoms[0]?.author, t.ended, t.atoms.length]),
    [
      ['human', true, 10],
      ['human', true, 4],
      ['human', true, 4],
      ['human', true, 4],
    ],
  );
  const context = JSON.parse((await runCli(['json', '--example', '--view', 'context'])).out) as Session;
  // the compaction and its summary come before the first prompt, so they open that prompt's turn
  assert.deepEqual(
    context.turns.map((t) => [t.trigger?.uuid, t.atoms.length]),
    [['e0a10023-0000-4000-8000-000000000023', 7]],
  );
  assert.equal(context.turns[0]?.atoms[0]?.subtype, 'compact_boundary');
});

test('diagnostics go to stderr with file and line, and the exit code stays 0', async () => {
  const path = writeJsonl([
    '{"parentUuid":null,"type":"user","uuid":"u1","timestamp":"2026-01-01T00:00:00Z","message":{"role":"user","content":"hi"}}',
    '{broken',
    `{"long": "${'x'.repeat(12_335)}`,
  ]);
  const { code, err } = await runCli(['json', path]);
  assert.equal(code, 0);
  // a long line's length with thousands separators, its head and tail quoted
  assert.equal(
    err,
    `${path}:2: error INVALID_JSON line is not valid JSON (7 chars: "{broken")\n` +
      `${path}:3: error INVALID_JSON line is not valid JSON (12,345 chars: "{\\"long\\": \\"${'x'.repeat(30)}…${'x'.repeat(20)}")\n`,
  );
});

test('an unreadable file or a bad option exits 2 with one line naming the problem', async () => {
  const missing = await runCli(['show', '/nonexistent/x.jsonl']);
  assert.equal(missing.code, 2);
  assert.match(missing.err, /^romp: \/nonexistent\/x\.jsonl: cannot read: no such file or directory \(ENOENT\)\n$/);
  assert.equal((await runCli(['show', '--view', 'sideways'])).code, 2);
  assert.equal((await runCli(['--help'])).code, 0);
});

test('romp stream reads stdin: the outline at the end, --follow one block per ended turn, --json the Session', async () => {
  const lines = [
    { type: 'system', subtype: 'init', session_id: 'S', cwd: '/w' },
    { type: 'user', uuid: 'p1', session_id: 'S', message: { role: 'user', content: 'hello' }, isReplay: true },
    {
      type: 'assistant',
      uuid: 'a1',
      session_id: 'S',
      parent_tool_use_id: null,
      message: { id: 'm1', role: 'assistant', content: [{ type: 'text', text: 'hi' }] },
    },
    { type: 'result', subtype: 'success', uuid: 'r1', session_id: 'S', num_turns: 1, is_error: false },
  ];
  const ndjson = lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
  const withStdin = async (argv: string[]) => {
    let out = '';
    const code = await cli(argv, {
      stdout: { write: (s: string) => (out += s) },
      stderr: { write: () => true },
      stdin: [Buffer.from(ndjson)],
    });
    return { code, out };
  };
  const outline = await withStdin(['stream']);
  assert.equal(outline.code, 0);
  assert.match(outline.out, /^1 turn, 3 atoms, 0 other records; times in /m);
  assert.match(outline.out, /^#1 .* {2}sdk {2}completed {2}3 atoms/m);
  const follow = await withStdin(['stream', '-', '--follow', '--json']);
  assert.deepEqual(
    follow.out
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { trigger: unknown }).trigger),
    [{ uuid: 'p1' }],
  );
  const json = JSON.parse((await withStdin(['stream', '--json'])).out) as Session;
  assert.deepEqual(
    [json.rompUuid, json.dir, json.turns[0]?.atoms.map((a) => a.type)],
    ['S', '/w', ['user', 'assistant', 'result']],
  );
});

test('romp stream of bytes of which no line reads exits 2, as show does; an empty recording is 0 turns', async () => {
  const dir = tempDir('romp-stream-');
  const garbage = `${dir}/garbage.ndjson`;
  writeFileSync(garbage, 'not json\n\u001b]0;x\u0007{broken\n\n');
  const refused = await runCli(['stream', garbage]);
  assert.deepEqual(
    [refused.code, refused.out, refused.err.replace(/; the first: .*/, '')],
    [2, '', `romp: ${garbage}: not a stream-json recording (0 of 2 lines readable\n`],
  );
  assert.doesNotMatch(refused.err, /\u001b/);
  const empty = `${dir}/empty.ndjson`;
  writeFileSync(empty, '');
  const none = await runCli(['stream', empty]);
  assert.deepEqual(
    [none.code, none.out.split('\n')[2]?.replace(/; times in .*/, '')],
    [0, '0 turns, 0 atoms, 0 other records'],
  );
});

test("romp stream's outline shows each result's turns, duration and cost, and no invented time", async () => {
  const turn = (n: number, timestamp: string | undefined, result: Record<string, unknown>) =>
    [
      {
        type: 'user',
        uuid: `p${n}`,
        session_id: 'S',
        message: { role: 'user', content: `prompt ${n}` },
        isReplay: true,
        ...(timestamp === undefined ? {} : { timestamp }),
      },
      {
        type: 'assistant',
        uuid: `a${n}`,
        session_id: 'S',
        parent_tool_use_id: null,
        message: { id: `m${n}`, role: 'assistant', content: [{ type: 'text', text: 'ok' }] },
      },
      { type: 'result', subtype: 'success', uuid: `r${n}`, session_id: 'S', is_error: false, ...result },
    ].map((l) => JSON.stringify(l));
  const ndjson =
    [
      ...turn(1, undefined, { num_turns: 3, duration_ms: 12_400, total_cost_usd: 0.0512 }),
      ...turn(2, '2026-03-01T10:00:00.000Z', { num_turns: 1, duration_ms: 95_000, total_cost_usd: 1.5 }),
    ].join('\n') + '\n';
  let out = '';
  const code = await cli(['stream', '--timezone', 'UTC'], {
    stdout: { write: (s: string) => (out += s) },
    stderr: { write: () => true },
    stdin: [Buffer.from(ndjson)],
  });
  assert.equal(code, 0);
  const blocks = out.split('\n').filter((l) => /^#\d|^ {4}result/.test(l));
  assert.deepEqual(
    blocks.map((l) => l.replace(/ {2}tokens.*/, '')),
    [
      '#1  time unknown  sdk  completed  3 atoms',
      '    result success: 3 turns, 12 s, $0.05',
      '#2  2026-03-01 10:00  sdk  completed  3 atoms',
      '    result success: 1 turn, 2 min, $1.50',
    ],
  );
});

test('romp register / resume / sessions / show --session work on a romp home', async () => {
  const home = tempDir('romp-cli-home-');
  const first = writeJsonl(
    [
      '{"parentUuid":null,"type":"user","uuid":"u1","timestamp":"2026-01-01T00:00:00Z","message":{"role":"user","content":"hi"}}',
    ],
    'first.jsonl',
  );
  const second = writeJsonl(
    [
      '{"parentUuid":"u1","type":"assistant","uuid":"a1","timestamp":"2026-01-01T00:00:05Z","message":{"id":"m","role":"assistant","content":[{"type":"text","text":"hello"}],"stop_reason":"end_turn"}}',
    ],
    'second.jsonl',
  );
  assert.equal(
    (await runCli(['register', 'R1', first, '--name', 'Greeting', '--romp-home', home])).out,
    'registered R1: 1 file, leaf first\n',
  );
  assert.equal((await runCli(['resume', 'R1', second, '--romp-home', home])).out, 'R1: 2 files, leaf second\n');
  assert.match((await runCli(['sessions', '--romp-home', home])).out, /^R1 {2}Greeting {2}2 files {2}leaf second/);
  const shown = JSON.parse((await runCli(['json', '--session', 'R1', '--romp-home', home])).out) as Session;
  assert.deepEqual(
    [shown.name, shown.turns.length, shown.turns[0]?.atoms.map((a) => a.uuid), shown.turns[0]?.ended],
    ['Greeting', 1, ['u1', 'a1'], true],
  );
  const refused = [
    await runCli(['resume', 'R2', second, '--romp-home', home]),
    await runCli(['register', 'R3', '/nonexistent/romp.jsonl', '--romp-home', home]),
    await runCli(['register', '../R4', first, '--romp-home', home]),
  ];
  assert.deepEqual(
    refused.map((r) => [r.code, r.err.split(':')[0]]),
    [
      [2, 'romp'],
      [2, 'romp'],
      [2, 'romp'],
    ],
  );
  assert.match(refused[0]?.err ?? '', /no session R2 in the registry/);
  assert.match(refused[1]?.err ?? '', /\/nonexistent\/romp\.jsonl: cannot read/);
  assert.match(refused[2]?.err ?? '', /"\.\.\/R4" cannot be a rompUuid/);
  const missing = await runCli(['show', '--session', 'nope', '--romp-home', home]);
  assert.equal(missing.code, 2);
  assert.match(missing.err, /^romp: no registered files for session nope/);
});

test('romp doctor reports orphaned parents, dead branches, compaction fallbacks, duplicates, and exits 1 on lost lines', async () => {
  const lines = [
    JSON.stringify({
      parentUuid: null,
      type: 'user',
      uuid: 'u1',
      timestamp: '2026-01-01T00:00:00Z',
      message: { role: 'user', content: 'one' },
    }),
    JSON.stringify({
      parentUuid: 'u1',
      type: 'assistant',
      uuid: 'a1',
      timestamp: '2026-01-01T00:00:01Z',
      message: { id: 'm1', role: 'assistant', content: [{ type: 'text', text: 'ok' }], stop_reason: 'end_turn' },
    }),
    JSON.stringify({
      parentUuid: 'u1',
      type: 'user',
      uuid: 'dead',
      timestamp: '2026-01-01T00:00:02Z',
      message: { role: 'user', content: 'rewound' },
    }),
    JSON.stringify({
      parentUuid: null,
      logicalParentUuid: 'ghost',
      type: 'system',
      subtype: 'compact_boundary',
      uuid: 'b',
      timestamp: '2026-01-01T00:01:00Z',
      compactMetadata: { trigger: 'auto', preTokens: 1 },
    }),
    JSON.stringify({
      parentUuid: 'nowhere',
      type: 'user',
      uuid: 'u2',
      timestamp: '2026-01-01T00:09:00Z',
      message: { role: 'user', content: 'two' },
    }),
    JSON.stringify({
      parentUuid: 'u1',
      type: 'user',
      uuid: 'dead',
      timestamp: '2026-01-01T00:00:02Z',
      message: { role: 'user', content: 'rewritten' },
    }),
    '{"broken',
  ];
  const path = writeJsonl(lines);
  const { code, out } = await runCli(['doctor', path, '--json']);
  assert.equal(code, 1);
  const [report] = JSON.parse(out) as Array<Record<string, unknown>>;
  assert.deepEqual(
    [
      report?.['counts'],
      report?.['orphanedParents'],
      report?.['compactionFallbacks'],
      report?.['duplicateUuids'],
      report?.['deadBranchLines'],
    ],
    [
      { INVALID_JSON: 1, DUPLICATE_UUID: 1, HISTORY_GAP: 1, COMPACT_PARENT_FALLBACK: 1 },
      [{ uuid: 'u2', line: 5, bridged: false }],
      [{ uuid: 'b', line: 4, stitched: true }],
      ['dead'],
      2, // a1, left behind by the rewind to `dead`, and the first copy of `dead`
    ],
  );
});

test('romp tools / segments / turns --json (--view context) on the bundled example, romp usage --json on a file', async () => {
  const tools = JSON.parse((await runCli(['tools', '--example', '--json'])).out) as Array<{
    name: string;
    duration_ms: number;
  }>;
  assert.deepEqual(
    tools.map((t) => [t.name, t.duration_ms]),
    [
      ['Grep', 1000],
      ['Read', 700],
      ['Edit', 1000],
      ['Write', 1000],
      ['Bash', 17000],
    ],
  );
  const segs = JSON.parse((await runCli(['segments', '--example', '--json'])).out) as unknown[];
  assert.equal(segs.length, 4);
  type Summary = {
    index: number;
    prompt: string;
    outcome: string;
    atoms: number;
    tools: Record<string, number>;
    usage: { output_tokens: number };
  };
  const turns = JSON.parse((await runCli(['turns', '--example', '--json'])).out) as Summary[];
  assert.deepEqual(
    turns.map((t) => [t.index, t.prompt, t.outcome, t.atoms, t.tools, t.usage.output_tokens]),
    [
      [1, 'Find the TODOs in src/ and fix the one in the parser', 'completed', 10, { Grep: 1, Read: 1, Edit: 1 }, 273],
      [2, 'Add a regression test for the empty-input case, with node:test', 'completed', 4, { Write: 1 }, 100],
      [3, '/compact', 'local', 4, {}, 0],
      [4, 'Run the tests', 'completed', 4, { Bash: 1 }, 39],
    ],
  );
  const context = JSON.parse((await runCli(['turns', '--example', '--json', '--view', 'context'])).out) as Summary[];
  assert.deepEqual(
    context.map((t) => [t.index, t.prompt]),
    [[1, 'Run the tests']],
  );
  const usage = JSON.parse((await runCli(['usage', EXAMPLE, '--json', '--timezone', 'UTC'])).out) as {
    total: { responses: number; input_tokens: number; output_tokens: number };
    byDay: Record<string, unknown>;
  };
  // 8 API responses (msg_demo_01..08), the rewound msg_demo_04 included: it was paid for
  // input 12+8+6+9+10+5+7+4 = 61, output 140+95+38+12+80+20+30+9 = 424
  assert.deepEqual(
    [usage.total.responses, usage.total.input_tokens, usage.total.output_tokens, Object.keys(usage.byDay)],
    [8, 61, 424, ['2026-03-01']],
  );
  assert.equal((await runCli(['usage', EXAMPLE, '--timezone', 'Mars/Olympus'])).code, 2);
});

test('bad input to usage, doctor, watch and the views is a one-line error and exit 2', async () => {
  const { writeFileSync } = await import('node:fs');
  const { join } = await import('node:path');
  const dir = tempDir('romp-bad-');
  const prices = join(dir, 'prices.json');
  writeFileSync(prices, JSON.stringify({ 'claude-opus-4-5': { input: -1 }, 'my-model': { input: 1 } }));
  const cases: Array<[string[], RegExp]> = [
    [['usage', '/nonexistent/x.jsonl'], /^romp: \/nonexistent\/x\.jsonl: cannot read/],
    [['usage', dir], /not a file/],
    [['usage', EXAMPLE, '--prices', prices], /claude-opus-4-5: input must be numbers ≥ 0/],
    [['usage', EXAMPLE, '--since', '2026-13-45'], /--since 2026-13-45: give a day as YYYY-MM-DD or YYYYMMDD/],
    [['usage', '--projects', dir, EXAMPLE], /not both/],
    [['doctor', '/nonexistent/y.jsonl'], /cannot read/],
    [['watch', '/nonexistent/z.jsonl'], /no such file/],
    [['ls', '--projects', '/nonexistent/projects'], /^romp: \/nonexistent\/projects: no such folder/],
    [['ls', '--projects', EXAMPLE], /not a folder/],
    [['show', EXAMPLE, '--session', 'R'], /name one session/],
    [['tools', EXAMPLE, '--session', 'R'], /name one session/],
    [['show'], /which session\? give a transcript file, a session id/],
    [['show', '--timezone', 'Mars/Olympus'], /Mars\/Olympus is not an IANA time zone/],
    [['watch', dir], /not a file/],
    [['watch', '--session', 'nope', '--romp-home', dir], /no registered files for session nope/],
    [['segments', '--session', 'nope', '--romp-home', dir], /no registered files for session nope/],
    [['usage', '--no-subagents'], /--no-subagents applies to files given/],
  ];
  for (const [argv, message] of cases) {
    const { code, err } = await runCli(argv);
    assert.deepEqual([code, message.test(err)], [2, true], `${argv.join(' ')}: ${err}`);
  }
});

test('the romp binary stops quietly, exit 0, when its reader closes the pipe early (romp json | head)', async () => {
  const { spawn } = await import('node:child_process');
  const bin = new URL('../src/cli/bin.js', import.meta.url);
  // far more JSON than a pipe holds, so writes are still pending when the reader leaves
  const lines = Array.from({ length: 400 }, (_, i) => user(`u${i}`, i === 0 ? null : `u${i - 1}`, 'x'.repeat(5000), i));
  const child = spawn(process.execPath, [bin.pathname, 'json', writeJsonl(lines)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  child.stdout.once('data', () => child.stdout.destroy());
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  assert.deepEqual([code, err], [0, '']);
});

test('views of a session without turns say so; doctor lists each repeated uuid once', async () => {
  const empty = writeJsonl([], 'empty.jsonl');
  for (const [view, text] of [
    ['turns', 'no turns in this session'],
    ['segments', 'no segments in this session'],
    ['tools', 'no tool calls in this session'],
  ]) {
    assert.deepEqual(
      [(await runCli([view as string, empty])).out, (await runCli([view as string, empty, '--json'])).out],
      [`${text}\n`, '[]\n'],
    );
  }
  const twice = writeJsonl(
    [user('u1', null, 'a', 0), user('u1', null, 'b', 1), user('u1', null, 'c', 2)],
    'twice.jsonl',
  );
  assert.match((await runCli(['doctor', twice])).out, /^ {2}duplicate uuids \(2 lines, 1 uuid\): u1$/m);
});
