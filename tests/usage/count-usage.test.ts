import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Diagnostic } from '../../src/diagnostics/diagnostic.ts';
import { countUsage, packResponses, unpackResponses, type Response } from '../../src/usage/count-usage.ts';
import { assistant, text, toolUse, user, writeJsonl } from '../helpers/transcript.ts';

const u = (input: number, output: number, extra: Record<string, unknown> = {}) => ({
  input_tokens: input,
  output_tokens: output,
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: 0,
  ...extra,
});
const line = (
  uuid: string,
  parent: string | null,
  mid: string,
  usage: object,
  extra: Record<string, unknown> = {},
  stop: string | null = 'end_turn',
) => assistant(uuid, parent, text(uuid), 1, { mid, stop, usage: usage as Record<string, unknown>, extra });

test('F1: split lines of one response without requestId count once', async () => {
  const r = await countUsage([
    writeJsonl([
      user('p', null, 'x', 0),
      line('a1', 'p', 'msg_1', u(10, 100), { requestId: undefined }),
      line('a2', 'a1', 'msg_1', u(10, 100), { requestId: undefined }),
    ]),
  ]);
  assert.deepEqual([r.total.responses, r.total.input_tokens, r.total.output_tokens], [1, 10, 100]);
});

test('F2/F3: the largest snapshot wins, not the first (partial output_tokens, repeated cache usage)', async () => {
  const r = await countUsage([
    writeJsonl([
      line('a1', null, 'msg_1', u(5, 2, { cache_read_input_tokens: 9000 }), {}, null),
      line('a2', 'a1', 'msg_1', u(5, 2, { cache_read_input_tokens: 9000 }), {}, null),
      line('a3', 'a2', 'msg_1', u(5, 480, { cache_read_input_tokens: 9000 }), {}, 'tool_use'),
    ]),
  ]);
  assert.deepEqual(
    [r.total.responses, r.total.output_tokens, r.total.cache_read_input_tokens, r.total.lowerBound],
    [1, 480, 9000, false],
  );
});

test('F4a: a gateway reusing one message.id without requestId: every session counts its own', async () => {
  const a = writeJsonl(
    [line('a1', null, 'msg_const', u(100, 10), { requestId: undefined, sessionId: 'S1' })],
    'one.jsonl',
  );
  const b = writeJsonl(
    [line('b1', null, 'msg_const', u(200, 20), { requestId: undefined, sessionId: 'S2' })],
    'two.jsonl',
  );
  const r = await countUsage([a, b]);
  assert.deepEqual([r.total.responses, r.total.input_tokens, Object.keys(r.bySession).sort()], [2, 300, ['S1', 'S2']]);
});

test('F4b: a fork copy (same message.id and requestId, new sessionId) counts once', async () => {
  const a = writeJsonl([line('a1', null, 'msg_1', u(100, 10), { requestId: 'req_1', sessionId: 'S1' })], 'orig.jsonl');
  const b = writeJsonl(
    [
      line('a1', null, 'msg_1', u(100, 10), { requestId: 'req_1', sessionId: 'S2' }),
      line('b2', 'a1', 'msg_2', u(1, 1), { requestId: 'req_2', sessionId: 'S2' }),
    ],
    'fork.jsonl',
  );
  const r = await countUsage([a, b]);
  assert.deepEqual([r.total.responses, r.total.input_tokens], [2, 101]);
});

test('F5: a side-question replay of a main response under a new requestId counts once; new subagent responses count', async () => {
  const main = writeJsonl(
    [line('a1', null, 'msg_M', u(10, 5, { cache_read_input_tokens: 50000 }), { requestId: 'R1' })],
    'main.jsonl',
  );
  const side = writeJsonl(
    [
      line('s1', null, 'msg_M', u(10, 5, { cache_read_input_tokens: 50000 }), { requestId: 'R2', isSidechain: true }),
      line('s2', 's1', 'msg_new', u(7, 3), { requestId: 'R3', isSidechain: true }),
    ],
    'agent-x.jsonl',
  );
  const r = await countUsage([main, side]);
  assert.deepEqual([r.total.responses, r.total.cache_read_input_tokens, r.total.input_tokens], [2, 50000, 17]);
});

test('cost: per-model prices, the nested 1 h cache breakdown, synthetic lines free, unknown models reported', async () => {
  const r = await countUsage([
    writeJsonl([
      // sonnet 4.5: $3 in, $15 out, $6 1h write, $0.30 read per MTok
      line(
        'a1',
        null,
        'msg_1',
        {
          input_tokens: 1_000_000,
          output_tokens: 100_000,
          cache_creation_input_tokens: 0,
          cache_read_input_tokens: 1_000_000,
          cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 500_000 },
        },
        { requestId: 'r1' },
      ),
      {
        ...assistant('a2', 'a1', text('No response requested.'), 2, { mid: 'syn', stop: 'stop_sequence' }),
        message: {
          id: 'syn',
          role: 'assistant',
          model: '<synthetic>',
          content: [],
          stop_reason: 'stop_sequence',
          usage: u(0, 0),
        },
      },
      {
        ...line('a3', 'a2', 'msg_3', u(10, 10), { requestId: 'r3' }),
        message: {
          id: 'msg_3',
          role: 'assistant',
          model: 'claude-mystery-9',
          content: [],
          stop_reason: 'end_turn',
          usage: u(10, 10),
        },
      },
    ]),
  ]);
  const sonnet = r.byModel['claude-sonnet-4-5'];
  assert.equal(sonnet?.cache_creation_input_tokens, 500_000);
  assert.equal(sonnet?.cache_creation_1h, 500_000);
  assert.equal(Math.round((sonnet?.cost_usd ?? 0) * 100) / 100, 3 + 1.5 + 3 + 0.3);
  assert.deepEqual(r.unknownModels, ['claude-mystery-9']);
  assert.equal(r.total.responses, 2); // the <synthetic> line is not an API response
  assert.deepEqual([r.total.unpriced, sonnet?.unpriced, r.byModel['claude-mystery-9']?.unpriced], [1, 0, 1]);
  // the CLI never shows a sum that leaves responses out as if it were the cost
  const { cli } = await import('../../src/cli/cli.ts');
  let out = '';
  await cli(['usage', '--breakdown', ...new Set(r.responses.map((x) => x.file))], {
    stdout: { write: (t: string) => (out += t) },
    stderr: { write: () => true },
  });
  assert.match(out, /^│ Total .* │ ≥ \$7\.80 \(1 unpriced\) │$/m);
  assert.match(out, /^│ {3}└ mystery-9 .* │ +no price │$/m);
});

test('days are bucketed in the zone given (F6)', async () => {
  const late = { ...line('a1', null, 'msg_1', u(1, 1), { requestId: 'r' }), timestamp: '2026-03-02T04:08:00.000Z' };
  const r1 = await countUsage([writeJsonl([late])], { timeZone: 'America/Los_Angeles' });
  const r2 = await countUsage([writeJsonl([late])], { timeZone: 'UTC' });
  assert.deepEqual([Object.keys(r1.byDay), Object.keys(r2.byDay)], [['2026-03-01'], ['2026-03-02']]);
});

test('responses before 2.1.112 with stop_reason null on every line make the total a lower bound; a later interrupted one does not', async () => {
  for (const version of ['2.1.20', '2.1.39', '2.1.96']) {
    const old = { version };
    const r = await countUsage([
      writeJsonl([
        line('a1', null, 'msg_1', u(1, 2), old, null),
        assistant('a2', 'a1', toolUse('t', 'Read'), 2, { mid: 'msg_1', stop: null, extra: old }),
      ]),
    ]);
    assert.equal(r.total.lowerBound, true, version);
  }
  const patched = await countUsage([
    writeJsonl([
      line('a1', null, 'msg_1', u(1, 2), { version: '2.1.96' }, null),
      line('a2', 'a1', 'msg_1', u(1, 250), { version: '2.1.96' }, 'end_turn'),
    ]),
  ]);
  assert.deepEqual([patched.total.lowerBound, patched.total.output_tokens], [false, 250]);
  const interrupted = await countUsage([
    writeJsonl([line('a1', null, 'msg_1', u(1, 2), { version: '2.1.300' }, null)]),
  ]);
  assert.equal(interrupted.total.lowerBound, false);
});

test('a copy is credited deterministically (earliest line, then session id), whatever the file or worker order', async () => {
  const a = writeJsonl(
    [
      {
        ...line('a1', null, 'msg_1', u(5, 5), { requestId: 'r', sessionId: 'ORIGINAL' }),
        timestamp: '2026-03-01T10:00:00.000Z',
      },
    ],
    'a.jsonl',
  );
  const b = writeJsonl(
    [
      {
        ...line('a1', null, 'msg_1', u(5, 5), { requestId: 'r', sessionId: 'FORK' }),
        timestamp: '2026-03-01T10:00:00.000Z',
      },
    ],
    'b.jsonl',
  );
  for (const files of [
    [a, b],
    [b, a],
  ])
    assert.deepEqual(Object.keys((await countUsage(files, { workers: 2 })).bySession), ['FORK']);
});

test('lines that cannot be read reach onDiagnostic, from worker threads too, and romp usage reports them on stderr', async () => {
  const broken = (name: string): string =>
    writeJsonl(
      [line('a1', null, `msg_${name}`, u(10, 1)), '{"type":"assistant","message":{"id":"msg_torn"'],
      `${name}.jsonl`,
    );
  const files = [broken('one'), broken('two')];
  for (const workers of [1, 2]) {
    const codes: string[] = [];
    const r = await countUsage(files, { workers, onDiagnostic: (d) => codes.push(`${d.code}:${d.line}`) });
    assert.deepEqual([r.total.responses, codes], [2, ['INVALID_JSON:2', 'INVALID_JSON:2']], `workers: ${workers}`);
  }
  const { cli } = await import('../../src/cli/cli.ts');
  let err = '';
  await cli(['usage', ...files], { stdout: { write: () => true }, stderr: { write: (t: string) => (err += t) } });
  assert.match(err, /^2 assistant lines could not be read and are not counted/);
  assert.match(err, /one\.jsonl:2: error INVALID_JSON/);
  err = '';
  await cli(['usage', files[0] as string], {
    stdout: { write: () => true },
    stderr: { write: (t: string) => (err += t) },
  });
  assert.match(err, /^1 assistant line could not be read and is not counted/);
});

test("romp usage FILE counts the session's subagent transcripts too, unless --no-subagents", async () => {
  const { mkdirSync, writeFileSync } = await import('node:fs');
  const { dirname, join } = await import('node:path');
  const main = writeJsonl([line('a1', null, 'msg_M', u(10, 5), { requestId: 'R1' })], 'sess-1.jsonl');
  const agents = join(dirname(main), 'sess-1', 'subagents');
  mkdirSync(agents, { recursive: true });
  writeFileSync(
    join(agents, 'agent-a1b2.jsonl'),
    `${JSON.stringify(line('s1', null, 'msg_S', u(7, 3), { requestId: 'R2', isSidechain: true }))}\n`,
  );
  const { cli } = await import('../../src/cli/cli.ts');
  const run = async (...args: string[]): Promise<{ total: { responses: number; input_tokens: number } }> => {
    let out = '';
    await cli(['usage', '--json', ...args], {
      stdout: { write: (t: string) => (out += t) },
      stderr: { write: () => true },
    });
    return JSON.parse(out) as { total: { responses: number; input_tokens: number } };
  };
  // 2.0.28–2.1.1 wrote them flat beside the session, named by the session id in their lines; a FIFO is never opened
  writeFileSync(
    join(dirname(main), 'agent-flat01.jsonl'),
    `${JSON.stringify(line('f1', null, 'msg_F', u(100, 1), { requestId: 'R3', isSidechain: true, sessionId: 'sess-1' }))}\n`,
  );
  writeFileSync(
    join(dirname(main), 'agent-other1.jsonl'),
    `${JSON.stringify(line('o1', null, 'msg_O', u(1000, 1), { requestId: 'R4', isSidechain: true, sessionId: 'someone-else' }))}\n`,
  );
  const { execFileSync } = await import('node:child_process');
  execFileSync('mkfifo', [join(agents, 'agent-fifo.jsonl')]);
  const all = await run(main);
  assert.deepEqual([all.total.responses, all.total.input_tokens], [3, 117]);
  assert.deepEqual((await run('--no-subagents', main)).total.responses, 1);
});

test('a sessionId or model named __proto__ / constructor is a bucket like any other, priced as unknown', async () => {
  const r = await countUsage([
    writeJsonl([
      line('a1', null, 'msg_1', u(10, 1), { sessionId: '__proto__', requestId: 'r1' }),
      line('a2', 'a1', 'msg_2', u(20, 2), { sessionId: 'constructor', requestId: 'r2' }),
    ]),
  ]);
  assert.deepEqual(
    Object.entries(r.bySession).map(([k, t]) => [k, t.input_tokens, t.lowerBound]),
    [
      ['__proto__', 10, false],
      ['constructor', 20, false],
    ],
  );
  assert.equal(({} as Record<string, unknown>)['lowerBound'], undefined);
  const m = await countUsage([
    writeJsonl(
      [assistant('a1', null, text('x'), 1, { mid: 'msg_1', stop: 'end_turn', usage: u(5, 5), extra: {} })].map((l) => ({
        ...l,
        message: { ...(l['message'] as object), model: 'constructor' },
      })),
    ),
  ]);
  assert.deepEqual(
    [Object.keys(m.byModel), m.unknownModels, m.total.cost_usd, m.total.unpriced],
    [['constructor'], ['constructor'], 0, 1],
  );
});

test('negative, string, fractional or 1e300 token counts are BAD_USAGE and not summed', async () => {
  const diagnostics: Diagnostic[] = [];
  const r = await countUsage(
    [
      writeJsonl([
        line('a1', null, 'msg_1', {
          input_tokens: -5,
          output_tokens: '7',
          cache_read_input_tokens: 1e300,
          cache_creation_input_tokens: 2.5,
          cache_creation: { ephemeral_5m_input_tokens: 3, ephemeral_1h_input_tokens: -1 },
        }),
        line('a2', 'a1', 'msg_2', u(4, 6)),
      ]),
    ],
    { onDiagnostic: (d) => diagnostics.push(d) },
  );
  assert.deepEqual(
    [
      r.total.input_tokens,
      r.total.output_tokens,
      r.total.cache_read_input_tokens,
      r.total.cache_creation_input_tokens,
      r.total.responses,
    ],
    [4, 6, 0, 3, 2],
  );
  assert.deepEqual(
    diagnostics.map((d) => [d.code, d.line, d.message.split(' ')[0]]),
    [
      'input_tokens',
      'output_tokens',
      'cache_creation_input_tokens',
      'cache_read_input_tokens',
      'cache_creation.ephemeral_1h_input_tokens',
    ].map((f) => ['BAD_USAGE', 1, `usage.${f}`]),
  );
  assert.ok(Number.isFinite(r.total.cost_usd));
});

test("a worker's packed responses come back equal: -0, ±Infinity, NaN times, no requestId, odd strings", () => {
  const groups = new Map<string, Response>();
  const r = (messageId: string, extra: Partial<Response>): Response => ({
    messageId,
    requestId: 'req_1',
    sessionId: 'S',
    model: 'claude-opus-4-5',
    t: 1_700_000_000_000,
    isSidechain: false,
    usage: u(1, 2),
    lowerBound: false,
    file: '/p/a.jsonl',
    ...extra,
  });
  groups.set('a', r('msg_a', { requestId: undefined, t: Number.NaN, isSidechain: true, lowerBound: true }));
  groups.set('b', r('msg_b', { usage: u(-0, 2, { cache_creation: { ephemeral_5m_input_tokens: Infinity } }) }));
  groups.set(
    'c',
    r('msg_\ud800"\\', { sessionId: '__proto__', model: '', t: -0, usage: u(3, 4, { x: [null, true] }) }),
  );
  const back: Array<[string, Response]> = [];
  const packed = packResponses(groups);
  unpackResponses(structuredClone(packed), (key, response) => back.push([key, response]));
  assert.deepEqual(
    back.map(([key]) => key),
    ['S\u0000msg_a', 'msg_b\u0000req_1', 'msg_\ud800"\\\u0000req_1'],
  );
  assert.deepEqual(
    back.map(([, response]) => response),
    [...groups.values()],
  );
  assert.ok(Object.is((back[1]?.[1].usage as { input_tokens: number }).input_tokens, -0));
  assert.ok(Object.is(back[2]?.[1].t, -0));
  assert.equal(packed.odd.length, 1);
});
