import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Response } from '../../src/usage/count-usage.ts';
import { groupUsage, isoWeek } from '../../src/usage/group-usage.ts';

const at = (iso: string): number => Date.parse(iso);
function response(
  id: string,
  t: number,
  model: string,
  tokens: { input: number; output: number; read?: number },
  file = '/p/-work-app/s1.jsonl',
  sessionId = 's1',
): Response {
  return {
    messageId: id,
    requestId: `req_${id}`,
    sessionId,
    model,
    t,
    isSidechain: false,
    usage: { input_tokens: tokens.input, output_tokens: tokens.output, cache_read_input_tokens: tokens.read ?? 0 },
    lowerBound: false,
    file,
  };
}

// sonnet 4.5: $3 in, $15 out, $0.30 cache read per MTok; haiku 4.5: $1 in, $5 out
const RESPONSES = [
  response('m1', at('2026-03-01T23:30:00Z'), 'claude-sonnet-4-5', { input: 1000, output: 100, read: 10_000 }),
  response('m2', at('2026-03-02T00:30:00Z'), 'claude-haiku-4-5', { input: 2000, output: 200 }),
  response(
    'm3',
    at('2026-03-02T06:00:00Z'),
    'claude-sonnet-4-5',
    { input: 10, output: 10 },
    '/p/-work-site/s2.jsonl',
    's2',
  ),
  response(
    'm4',
    at('2026-03-09T10:00:00Z'),
    'claude-sonnet-4-5',
    { input: 5, output: 5 },
    '/p/-work-app/s1/subagents/agent-a1.jsonl',
  ),
  response('m5', Number.NaN, 'claude-sonnet-4-5', { input: 1, output: 1 }),
];

test('daily in a zone: 23:30 UTC is the next day in Paris; a response without time is its own row', () => {
  const rows = groupUsage(RESPONSES, 'daily', { timeZone: 'Europe/Paris' });
  assert.deepEqual(
    rows.map((r) => [r.key, r.totals.responses, r.totals.input_tokens]),
    [
      ['2026-03-02', 3, 3010],
      ['2026-03-09', 1, 5],
      ['unknown', 1, 1],
    ],
  );
  const utc = groupUsage(RESPONSES, 'daily', { timeZone: 'UTC' });
  assert.deepEqual(
    utc.map((r) => r.key),
    ['2026-03-01', '2026-03-02', '2026-03-09', 'unknown'],
  );
  // 2026-03-02 in Paris: m1 sonnet (1000×3 + 100×15 + 10000×0.3)/1e6 = 0.0075, m3 sonnet (10×3+10×15)/1e6 = 0.00018, m2
  // haiku (2000×1+200×5)/1e6 = 0.003
  const first = rows[0];
  assert.ok(first !== undefined);
  assert.equal(Math.round(first.totals.cost_usd * 1e8), Math.round((0.0075 + 0.00018 + 0.003) * 1e8));
  assert.deepEqual(
    first.models.map((m) => [m.model, m.totals.responses]),
    [
      ['claude-haiku-4-5', 1],
      ['claude-sonnet-4-5', 2],
    ],
  );
});

test('weekly, monthly, since/until', () => {
  assert.deepEqual(
    groupUsage(RESPONSES, 'weekly', { timeZone: 'UTC' }).map((r) => [r.key, r.totals.responses]),
    [
      ['2026-W09', 1],
      ['2026-W10', 2],
      ['2026-W11', 1],
      ['unknown', 1],
    ],
  );
  assert.deepEqual(
    groupUsage(RESPONSES, 'monthly', { timeZone: 'UTC' }).map((r) => [r.key, r.totals.responses]),
    [
      ['2026-03', 4],
      ['unknown', 1],
    ],
  );
  assert.deepEqual(
    groupUsage(RESPONSES, 'daily', { timeZone: 'UTC', since: '2026-03-02', until: '2026-03-08' }).map((r) => [
      r.key,
      r.totals.responses,
    ]),
    [['2026-03-02', 2]],
  );
  assert.deepEqual(
    [isoWeek('2026-01-01'), isoWeek('2027-01-01'), isoWeek('2026-12-28')],
    ['2026-W01', '2026-W53', '2026-W53'],
  );
});

test('session and project rows; a subagent file counts for the project above its session folder', () => {
  assert.deepEqual(
    groupUsage(RESPONSES, 'session').map((r) => [r.key, r.project, r.totals.responses]),
    [
      ['s1', '-work-app', 4],
      ['s2', '-work-site', 1],
    ],
  );
  assert.deepEqual(
    groupUsage(RESPONSES, 'project').map((r) => [r.key, r.totals.responses]),
    [
      ['-work-app', 4],
      ['-work-site', 1],
    ],
  );
});

test("blocks: 5 hours from the first response's hour; the next response after that opens the next block", () => {
  const rows = groupUsage(RESPONSES, 'blocks');
  assert.deepEqual(
    rows.map((r) => [r.key, r.end === undefined ? null : new Date(r.end).toISOString(), r.totals.responses]),
    [
      ['2026-03-01T23:00:00.000Z', '2026-03-02T04:00:00.000Z', 2],
      ['2026-03-02T06:00:00.000Z', '2026-03-02T11:00:00.000Z', 1],
      ['2026-03-09T10:00:00.000Z', '2026-03-09T15:00:00.000Z', 1],
      ['unknown', null, 1],
    ],
  );
});
