import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { CacheReport } from '../../src/cache/explain-cache-writes.ts';
import { cacheClock, formatCacheClock } from '../../src/cache/cache-clock.ts';
import { parseSession } from '../../src/session/parse-session.ts';
import { runCli } from '../helpers/run-cli.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import {
  assistant,
  at,
  compactBoundary,
  T0,
  text,
  toolResult,
  toolUse,
  user,
  writeJsonl,
} from '../helpers/transcript.ts';

// claude-sonnet-4-5: input $3, 5 m write $3.75, 1 h write $6, read $0.30 per MTok
const usage = (read: number, write: number, hour = false): Record<string, unknown> => ({
  input_tokens: 10,
  output_tokens: 100,
  cache_read_input_tokens: read,
  cache_creation_input_tokens: write,
  cache_creation: { ephemeral_5m_input_tokens: hour ? 0 : write, ephemeral_1h_input_tokens: hour ? write : 0 },
});
const reply = (
  uuid: string,
  parent: string,
  sec: number,
  mid: string,
  u: Record<string, unknown>,
  extra: Record<string, unknown> = {},
): Record<string, unknown> => assistant(uuid, parent, text('ok'), sec, { mid, stop: 'end_turn', usage: u, extra });

async function cache(lines: Array<Record<string, unknown>>): Promise<CacheReport> {
  const { code, out, err } = await runCli(['cache', '--json', writeJsonl(lines)]);
  assert.equal(code, 0, err);
  return JSON.parse(out) as CacheReport;
}

const close = (a: number, b: number): void => assert.ok(Math.abs(a - b) < 1e-9, `${a} ≠ ${b}`);

test('cold start and growth: the first write, then the turn appended; priced at the 5 m rate, no extra', async () => {
  const r = await cache([
    user('u1', null, 'hi', 0),
    reply('a1', 'u1', 2, 'm1', usage(0, 20_000)),
    user('u2', 'a1', 'more', 60),
    reply('a2', 'u2', 62, 'm2', usage(20_000, 1_000)),
  ]);
  assert.deepEqual(Object.keys(r.causes).sort(), ['cold_start', 'growth']);
  assert.equal(r.causes['cold_start']?.tokens, 20_000);
  close(r.causes['cold_start']?.cost_usd ?? NaN, 0.075);
  assert.equal(r.causes['growth']?.tokens, 1_000);
  close(r.causes['growth']?.extra_cost_usd ?? NaN, 0);
  assert.equal(r.total.tokens, 21_000);
  assert.equal(r.bySession['fixture-session']?.project, '/work/demo');
  assert.equal(r.byDay['2026-03-01']?.tokens ?? r.byDay[Object.keys(r.byDay)[0] as string]?.tokens, 21_000);
  const byProject = (r as CacheReport & { byProject: Record<string, { tokens: number }> }).byProject;
  assert.deepEqual(
    Object.entries(byProject).map(([p, g]) => [p, g.tokens]),
    [['/work/demo', 21_000]],
  );
});

test('expiry after a human pause: 10 min waiting for the prompt; the prefix re-written costs write less read', async () => {
  const r = await cache([
    user('u1', null, 'hi', 0),
    reply('a1', 'u1', 2, 'm1', usage(0, 20_000)),
    user('u2', 'a1', 'back', 602),
    reply('a2', 'u2', 604, 'm2', usage(0, 20_130)),
  ]);
  const e = r.causes['expiry_human'];
  assert.equal(e?.responses, 1);
  assert.equal(e?.tokens, 20_130);
  close(e?.cost_usd ?? NaN, (20_130 * 3.75) / 1e6);
  // the previous prompt held 10 + 0 + 20,000 tokens, none read back: 20,010 re-written at 3.75 − 0.30
  close(e?.extra_cost_usd ?? NaN, (20_010 * 3.45) / 1e6);
});

test('expiry during work: a 7 min tool call; with 1 h writes the same gap is growth', async () => {
  const lines = (hour: boolean): Array<Record<string, unknown>> => [
    user('u1', null, 'build it', 0),
    assistant('a1', 'u1', toolUse('t1', 'Bash', { command: 'make' }), 2, {
      mid: 'm1',
      stop: 'tool_use',
      usage: usage(0, 20_000, hour),
    }),
    user('r1', 'a1', [toolResult('t1', 'built')], 422),
    reply('a2', 'r1', 424, 'm2', usage(hour ? 20_000 : 0, hour ? 500 : 20_500, hour)),
  ];
  assert.equal((await cache(lines(false))).causes['expiry_work']?.tokens, 20_500);
  const hour = await cache(lines(true));
  assert.equal(hour.causes['growth']?.tokens, 500);
  close(hour.causes['cold_start']?.cost_usd ?? NaN, (20_000 * 6) / 1e6);
});

test('model switch: the other model has no cache of this prefix', async () => {
  const r = await cache([
    user('u1', null, 'hi', 0),
    reply('a1', 'u1', 2, 'm1', usage(0, 20_000)),
    user('u2', 'a1', '/model opus', 30),
    {
      ...reply('a2', 'u2', 32, 'm2', usage(0, 20_200)),
      message: { ...(reply('a2', 'u2', 32, 'm2', usage(0, 20_200))['message'] as object), model: 'claude-opus-4-5' },
    },
  ]);
  const m = r.causes['model_switch'];
  assert.equal(m?.tokens, 20_200);
  close(m?.cost_usd ?? NaN, (20_200 * 6.25) / 1e6); // opus 4.5: $5 input, 5 m write $6.25, read $0.50
  close(m?.extra_cost_usd ?? NaN, (20_010 * 5.75) / 1e6);
});

test('compaction: the first response after a boundary writes the summary, by design (no extra)', async () => {
  const r = await cache([
    user('u1', null, 'hi', 0),
    reply('a1', 'u1', 2, 'm1', usage(0, 90_000)),
    compactBoundary('b', 'a1', 30),
    user('s', 'b', 'summary', 31, { isCompactSummary: true }),
    user('u2', 's', 'go on', 40),
    reply('a2', 'u2', 42, 'm2', usage(3_000, 4_000)),
  ]);
  assert.deepEqual(r.causes['compaction'], {
    responses: 1,
    tokens: 4_000,
    cost_usd: (4_000 * 3.75) / 1e6,
    extra_cost_usd: 0,
  });
});

test("rewind: a prompt hung on an earlier response; the extra is what that response's prompt held beyond the read", async () => {
  const r = await cache([
    user('u1', null, 'hi', 0),
    reply('a1', 'u1', 2, 'm1', usage(0, 10_000)),
    user('u2', 'a1', 'try A', 20),
    reply('a2', 'u2', 22, 'm2', usage(10_000, 5_000)),
    user('u3', 'a1', 'try B instead', 60),
    reply('a3', 'u3', 62, 'm3', usage(4_000, 6_200)),
  ]);
  const w = r.causes['rewind'];
  assert.equal(w?.tokens, 6_200);
  close(w?.extra_cost_usd ?? NaN, ((10_010 - 4_000) * 3.45) / 1e6);
});

test('prompt change: same model, no gap, no fork, but the read dropped below half the previous prompt', async () => {
  const r = await cache([
    user('u1', null, 'hi', 0),
    reply('a1', 'u1', 2, 'm1', usage(0, 30_000)),
    user('u2', 'a1', 'next', 20),
    reply('a2', 'u2', 22, 'm2', usage(2_000, 28_500)),
  ]);
  const p = r.causes['prompt_change'];
  assert.equal(p?.tokens, 28_500);
  close(p?.extra_cost_usd ?? NaN, (28_010 * 3.45) / 1e6);
});

test("a subagent chain starts cold on its own; the causes add up to romp usage's cache-write tokens", async () => {
  const file = writeJsonl([
    user('u1', null, 'hi', 0),
    assistant('a1', 'u1', toolUse('t1', 'Task', { prompt: 'look' }), 2, {
      mid: 'm1',
      stop: 'tool_use',
      usage: usage(0, 10_000),
    }),
    { ...user('s1', null, 'look', 3), isSidechain: true, agentId: 'ag1' },
    { ...reply('s2', 's1', 4, 'm9', usage(0, 7_000)), isSidechain: true, agentId: 'ag1' },
    user('r1', 'a1', [toolResult('t1', 'found')], 5),
    reply('a2', 'r1', 6, 'm2', usage(10_000, 300)),
  ]);
  const r = JSON.parse((await runCli(['cache', '--json', file])).out) as CacheReport;
  assert.deepEqual(
    { cold: r.causes['cold_start']?.responses, growth: r.causes['growth']?.tokens },
    { cold: 2, growth: 300 },
  );
  const u = JSON.parse((await runCli(['usage', '--json', file])).out) as {
    total: { cache_creation_input_tokens: number };
  };
  assert.equal(r.total.tokens, u.total.cache_creation_input_tokens);
  assert.equal(r.total.tokens, 17_300);
});

test('cache clock: TTL left from the last response, and what a request after expiry re-writes', async () => {
  const { session } = await parseSession([
    writeJsonl([user('u1', null, 'hi', 0), reply('a1', 'u1', 2, 'm1', usage(5_000, 1_000))]),
  ]);
  const clock = cacheClock(session, T0 + 62_000);
  assert.deepEqual(clock && { ttl: clock.ttl, left: clock.seconds_left, tokens: clock.rewrite_tokens }, {
    ttl: '5m',
    left: 240,
    tokens: 6_110,
  });
  close(clock?.rewrite_usd ?? NaN, (6_110 * 3.75) / 1e6);
  assert.equal(
    formatCacheClock(clock!),
    'cache: 4 min 0 s left (5m TTL); after that a request re-writes 6,110 tokens ($0.02)',
  );
  assert.equal(cacheClock(session, T0 + 3_600_000)?.seconds_left, 0);
});

test("--statusline reads Claude Code's status-line JSON on stdin and prints the clock", async () => {
  const file = writeJsonl([user('u1', null, 'hi', 0), reply('a1', 'u1', 2, 'm1', usage(5_000, 1_000, true))]);
  let out = '';
  const { cli } = await import('../../src/cli/cli.ts');
  const code = await cli(['cache', '--statusline', '--timezone', 'America/St_Johns'], {
    stdin: [JSON.stringify({ transcript_path: file, session_id: 'x' })],
    stdout: { write: (s: string) => (out += s) },
    stderr: { write: () => {} },
  });
  assert.equal(code, 0);
  const parsed = JSON.parse(out) as {
    cache_clock: { ttl: string; last_response: string; expires_at: string; rewrite_tokens: number };
  };
  // 2026-03-01T10:00:02Z and an hour later, in Newfoundland's winter time (-03:30)
  assert.deepEqual(
    [
      parsed.cache_clock.ttl,
      parsed.cache_clock.last_response,
      parsed.cache_clock.expires_at,
      parsed.cache_clock.rewrite_tokens,
    ],
    ['1h', '2026-03-01T06:30:02.000-03:30', '2026-03-01T07:30:02.000-03:30', 6_110],
  );
});

test('romp watch --json carries the cache clock on each change', async () => {
  const { cli } = await import('../../src/cli/cli.ts');
  const path = writeJsonl([user('u1', null, 'hi', 0), reply('a1', 'u1', 2, 'm1', usage(5_000, 1_000))]);
  const controller = new AbortController();
  let out = '';
  const io = {
    stdout: {
      write: (s: string) => {
        out += s;
        controller.abort();
        return true;
      },
    },
    stderr: { write: () => true },
  };
  assert.equal(
    await cli(['watch', path, '--json', '--poll', '--timezone', 'Australia/Lord_Howe'], io, controller.signal),
    0,
  );
  const line = JSON.parse(out.split('\n')[0] as string) as {
    turns: Array<{ t: number }>;
    cache_clock: { ttl: string; expires_at: string; rewrite_tokens: number };
  };
  const clock = line.cache_clock;
  // 2026-03-01T10:05:02Z on Lord Howe Island's summer time (+11:00)
  assert.deepEqual([clock.ttl, clock.expires_at, clock.rewrite_tokens], ['5m', '2026-03-01T21:05:02.000+11:00', 6_110]);
  assert.equal(line.turns[0]?.t, T0); // the turns are the model's: epoch ms
});

test("expiry: a span romp's state log marks idle counts as human time, even inside a tool call", async () => {
  const file = writeJsonl([
    user('u1', null, 'build it', 0),
    assistant('a1', 'u1', toolUse('t1', 'Bash', { command: 'make' }), 2, {
      mid: 'm1',
      stop: 'tool_use',
      usage: usage(0, 20_000),
    }),
    user('r1', 'a1', [toolResult('t1', 'built')], 422),
    reply('a2', 'r1', 424, 'm2', usage(0, 20_500)),
  ]);
  const home = tempDir('romp-home-');
  mkdirSync(join(home, 'states'));
  writeFileSync(
    join(home, 'states', 'fixture-session.jsonl'),
    `${JSON.stringify({ t: at(10), state: 'idle' })}\n${JSON.stringify({ t: at(400), state: 'working' })}\n`,
  );
  const r = JSON.parse((await runCli(['cache', '--json', file, '--romp-home', home])).out) as CacheReport;
  assert.deepEqual(Object.keys(r.causes).sort(), ['cold_start', 'expiry_human']);
});

test('a stream: a system/init with another tool list before a response is a prompt change; frames have no times, file order rules', async () => {
  const init = (tools: string[]): Record<string, unknown> => ({
    type: 'system',
    subtype: 'init',
    session_id: 's',
    model: 'claude-sonnet-4-5',
    tools,
  });
  const frame = (mid: string, u: Record<string, unknown>): Record<string, unknown> => ({
    type: 'assistant',
    session_id: 's',
    message: {
      id: mid,
      role: 'assistant',
      model: 'claude-sonnet-4-5',
      content: [text('ok')],
      stop_reason: null,
      usage: u,
    },
  });
  const r = await cache([
    init(['Bash', 'Read']),
    frame('m1', usage(0, 10_000)),
    init(['Read', 'Bash']),
    frame('m2', usage(10_000, 400)),
    init(['Bash', 'Read', 'mcp__x']),
    frame('m3', usage(9_000, 1_600)),
  ]);
  assert.deepEqual(
    [r.causes['cold_start']?.tokens, r.causes['growth']?.tokens, r.causes['prompt_change']?.tokens],
    [10_000, 400, 1_600],
  );
  close(r.causes['prompt_change']?.extra_cost_usd ?? NaN, (1_410 * 3.45) / 1e6);
});

test('the text report: total, then each cause, project, session and day with responses, tokens, USD and extra', async () => {
  const file = writeJsonl([
    user('u1', null, 'hi', 0),
    reply('a1', 'u1', 2, 'm1', usage(0, 20_000)),
    user('u2', 'a1', 'back', 602),
    reply('a2', 'u2', 604, 'm2', usage(0, 20_130)),
  ]);
  const { code, out } = await runCli(['cache', file]);
  assert.equal(code, 0);
  assert.match(out, /^Cache writes: 40,130 tokens, \$0\.15 /);
  assert.match(out, /\n {2}expiry_human {5}\s+1 response\s+20,130 tokens\s+\$0\.08 {2}\+\$0\.07 vs warm\n/);
  assert.match(out, /by project:\n {2}\/work\/demo\s+2 responses\s+40,130 tokens/);
  // on an 80-column terminal every line fits, a long name (a session id) on a line of its own
  const wide = await runCli(['cache', file], 80);
  assert.deepEqual(
    wide.out.split('\n').filter((l) => l.length > 79),
    [],
  );
  assert.match(wide.out, /^Cache writes: 40,130 tokens, \$0\.15 \(each API response once, as romp usage coun…$/m);
});
