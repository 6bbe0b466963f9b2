import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readBranches } from '../../src/html/read-branches.ts';
import { capText } from '../../src/rows/block-text.ts';
import { sessionRows } from '../../src/rows/session-rows.ts';
import { parseLines } from '../helpers/parse.ts';
import { assistant, SID, T0, text, thinking, toolResult, toolUse, user } from '../helpers/transcript.ts';

const lines = [
  user('u1', null, 'find the bug', 0),
  assistant('a1', 'u1', thinking('hmm'), 1, {
    mid: 'm1',
    stop: 'tool_use',
    usage: { input_tokens: 100, output_tokens: 2, cache_creation_input_tokens: 0, cache_read_input_tokens: 1000 },
  }),
  assistant('a2', 'a1', toolUse('t1', 'Bash', { command: 'npm test' }), 1, {
    mid: 'm1',
    stop: 'tool_use',
    usage: {
      input_tokens: 100,
      output_tokens: 40,
      cache_creation_input_tokens: 300,
      cache_creation: { ephemeral_5m_input_tokens: 100, ephemeral_1h_input_tokens: 200 },
      cache_read_input_tokens: 1000,
    },
  }),
  user('r1', 'a2', [toolResult('t1', '1 failing', true)], 3),
  assistant('a3', 'r1', text('Fixed.'), 5, {
    mid: 'm2',
    stop: 'end_turn',
    usage: { input_tokens: 10, output_tokens: 20, cache_creation_input_tokens: 0, cache_read_input_tokens: 2000 },
  }),
  user('u2', 'a3', 'try again', 10), // rewound: u3 forks from a3 after it
  user('u3', 'a3', 'other way', 20),
  assistant('a4', 'u3', text('Done'), 21, { mid: 'm3', stop: 'end_turn' }),
];

test('sessionRows: one session row with the totals of its responses, each once', async () => {
  const { session } = await parseLines(lines);
  const rows = sessionRows(session);
  assert.equal(rows.sessions.length, 1);
  const s = rows.sessions[0]!;
  assert.equal(s.key, SID);
  assert.equal(s.session_ids_json, JSON.stringify([SID]));
  assert.equal(s.project, '/work/demo');
  assert.equal(s.first_t, T0);
  assert.equal(s.last_t, T0 + 21_000);
  assert.equal(s.turns, 2);
  assert.equal(s.atoms, 7);
  assert.equal(s.models_json, '["claude-sonnet-4-5"]');
  // m1 (its largest snapshot, a2) + m2 + m3 (the helper's default usage: 10 in, 5 out, 100 read)
  assert.equal(s.responses, 3);
  assert.equal(s.input_tokens, 120);
  assert.equal(s.output_tokens, 65);
  assert.equal(s.cache_creation_input_tokens, 300);
  assert.equal(s.ephemeral_5m_input_tokens, 100);
  assert.equal(s.ephemeral_1h_input_tokens, 200);
  assert.equal(s.cache_read_input_tokens, 3100);
  // sonnet 4.5 per MTok: $3 in, $15 out, $3.75 5 m write, $6 1 h write, $0.30 read
  assert.ok(Math.abs(s.cost_usd - (2775 + 930 + 135) / 1e6) < 1e-12);
  assert.equal(s.unpriced, 0);
});

test('sessionRows: usage facts are keyed by message.id + requestId, tokens named as the API names them', async () => {
  const { session } = await parseLines(lines);
  const facts = sessionRows(session).usage_facts;
  assert.deepEqual(
    facts.map((f) => [f.key, f.atom_key, f.turn_key === session.turns[0]!.id]),
    [
      ['["m1","req_m1"]', 'a1', true],
      ['["m2","req_m2"]', 'a3', true],
      ['["m3","req_m3"]', 'a4', false],
    ],
  );
  const m1 = facts[0]!;
  assert.deepEqual(
    [
      m1.input_tokens,
      m1.output_tokens,
      m1.cache_creation_input_tokens,
      m1.ephemeral_5m_input_tokens,
      m1.ephemeral_1h_input_tokens,
      m1.cache_read_input_tokens,
      m1.t,
      m1.lower_bound,
      m1.is_sidechain,
    ],
    [100, 40, 300, 100, 200, 1000, T0 + 1000, false, false],
  );
  assert.ok(Math.abs((m1.cost_usd ?? NaN) - (100 * 3 + 40 * 15 + 100 * 3.75 + 200 * 6 + 1000 * 0.3) / 1e6) < 1e-12);
});

test('sessionRows: without requestId a response is keyed within the session; an unpriced model costs null', async () => {
  const noRequest = assistant('a1', 'u1', text('hi'), 1, { mid: 'mx', stop: 'end_turn' });
  delete (noRequest as Record<string, unknown>)['requestId'];
  (noRequest['message'] as Record<string, unknown>)['model'] = 'gpt-nothing';
  const { session } = await parseLines([user('u1', null, 'hello', 0), noRequest]);
  const rows = sessionRows(session);
  assert.equal(rows.usage_facts[0]!.key, `["${SID}","mx"]`);
  assert.equal(rows.usage_facts[0]!.request_id, null);
  assert.equal(rows.usage_facts[0]!.cost_usd, null);
  assert.equal(rows.sessions[0]!.unpriced, 1);
  assert.equal(rows.sessions[0]!.cost_usd, 0);
});

test('sessionRows: turns are summarizeTurn flattened', async () => {
  const { session } = await parseLines(lines);
  const [first, second] = sessionRows(session).turns;
  assert.ok(Math.abs(first!.cost_usd - (2775 + 930) / 1e6) < 1e-12);
  assert.deepEqual(
    { ...first, key: '', cost_usd: 0 },
    {
      key: '',
      session_key: SID,
      index: 1,
      trigger: 'u1',
      author: 'human',
      peer: null,
      prompt: 'find the bug',
      outcome: 'completed',
      t: T0,
      end: T0 + 5000,
      duration_ms: 5000,
      ended: true,
      atoms: 5,
      tools_json: '{"Bash":1}',
      input_tokens: 110,
      output_tokens: 60,
      cache_creation_input_tokens: 300,
      ephemeral_5m_input_tokens: 100,
      ephemeral_1h_input_tokens: 200,
      cache_read_input_tokens: 3000,
      responses: 2,
      cost_usd: 0,
      unpriced: 0,
      lower_bound: false,
      subagents: 0,
    },
  );
  assert.equal(first!.key, session.turns[0]!.id);
  assert.equal(second!.prompt, 'other way');
});

test('sessionRows: atoms and blocks say who wrote what, and tool results name their tool', async () => {
  const { session } = await parseLines(lines);
  const rows = sessionRows(session);
  assert.deepEqual(
    rows.atoms.map((a) => [a.key, a.seq, a.type, a.author, a.turn_index, a.on_path]),
    [
      ['u1', 0, 'user', 'human', 1, true],
      ['a1', 1, 'assistant', null, 1, true],
      ['a2', 2, 'assistant', null, 1, true],
      ['r1', 3, 'user', null, 1, true],
      ['a3', 4, 'assistant', null, 1, true],
      ['u3', 5, 'user', 'human', 2, true],
      ['a4', 6, 'assistant', null, 2, true],
    ],
  );
  assert.deepEqual(rows.atoms[2]!.message_id, 'm1');
  assert.deepEqual(rows.atoms[2]!.request_id, 'req_m1');
  assert.deepEqual(
    rows.blocks.map((b) => [b.key, b.role, b.tool_name, b.text, b.is_error]),
    [
      ['u1:0', 'typed', null, 'find the bug', false],
      ['a1:0', 'thinking', null, 'hmm', false],
      ['a2:0', 'tool_use', 'Bash', '{"command":"npm test"}', false],
      ['r1:0', 'tool_result', 'Bash', '1 failing', true],
      ['a3:0', 'assistant', null, 'Fixed.', false],
      ['u3:0', 'typed', null, 'other way', false],
      ['a4:0', 'assistant', null, 'Done', false],
    ],
  );
});

test('sessionRows: rewound lines become off-path atoms with their line and byte offset', async () => {
  const parsed = await parseLines(lines);
  const { branches } = await readBranches(parsed.session);
  const rows = sessionRows(parsed.session, { branches, diagnostics: parsed.diagnostics });
  const dead = rows.atoms.filter((a) => !a.on_path);
  assert.deepEqual(
    dead.map((a) => [a.key, a.line, a.fsid, a.turn_key, a.seq]),
    [['u2', 6, SID, null, 2 ** 32]],
  );
  // the active path's atoms 0, 1, …: the rewound line's seq is past them, however many turns come
  assert.deepEqual(
    rows.atoms.filter((a) => a.on_path).map((a) => a.seq),
    rows.atoms.filter((a) => a.on_path).map((_, i) => i),
  );
  const bytesBefore = lines.slice(0, 5).reduce((n, l) => n + Buffer.byteLength(JSON.stringify(l)) + 1, 0);
  assert.equal(dead[0]!.byte_offset, bytesBefore);
  assert.deepEqual(
    rows.blocks.filter((b) => !b.on_path).map((b) => [b.key, b.text]),
    [['u2:0', 'try again']],
  );
});

test('sessionRows: tool calls pair use and result; the output is not copied', async () => {
  const { session } = await parseLines(lines);
  const [call, ...rest] = sessionRows(session, { subagents: [] }).tool_calls;
  assert.equal(rest.length, 0);
  assert.deepEqual(call, {
    key: 't1',
    session_key: SID,
    turn_key: session.turns[0]!.id,
    tool_use_id: 't1',
    name: 'Bash',
    input_summary: 'Bash: npm test',
    use_key: 'a2',
    result_key: 'r1',
    t: T0 + 1000,
    end: T0 + 3000,
    duration_ms: 2000,
    is_error: true,
    error: '1 failing',
    subagent_key: null,
  });
});

test('sessionRows: block text is cut to the cap with its full length kept, never inside a surrogate pair', async () => {
  const long = 'x'.repeat(9) + '😀' + 'y'.repeat(20);
  const { session } = await parseLines([user('u1', null, long, 0)]);
  const [block] = sessionRows(session, { textCap: 10 }).blocks;
  assert.equal(block!.text, 'x'.repeat(9));
  assert.equal(block!.text_length, 31);
  assert.equal(capText(long, 11), 'x'.repeat(9) + '😀');
  // tool output keeps 2048 by default, typed text 4096
  const { session: tools } = await parseLines([
    user('u1', null, 'p'.repeat(5000), 0),
    assistant('a1', 'u1', toolUse('t1', 'Bash', { command: 'c' }), 1, { mid: 'm', stop: 'tool_use' }),
    user('r1', 'a1', [toolResult('t1', 'o'.repeat(3000))], 2),
  ]);
  assert.deepEqual(
    sessionRows(tools).blocks.map((b) => [b.role, b.text.length, b.text_length]),
    [
      ['typed', 4096, 5000],
      ['tool_use', 15, 15],
      ['tool_result', 2048, 3000],
    ],
  );
});

test('sessionRows: subagent links and the parent link', async () => {
  const { session } = await parseLines([
    user('u1', null, 'go', 0),
    assistant('a1', 'u1', toolUse('t9', 'Task', { prompt: 'look' }), 1, { mid: 'm1', stop: 'tool_use' }),
    user('r1', 'a1', [toolResult('t9', 'seen')], 9),
  ]);
  const rows = sessionRows(session, {
    subagents: [{ tool_use_id: 't9', key: 'child', path: '/p/agent-1.jsonl', by: 'meta' }],
    parent: { key: 'grand', tool_use_id: 't0' },
  });
  assert.deepEqual(rows.subagents, [
    { key: 't9', session_key: SID, subagent_key: 'child', path: '/p/agent-1.jsonl', linked_by: 'meta', atoms: 0 },
  ]);
  assert.equal(rows.tool_calls[0]!.subagent_key, 'child');
  assert.equal(rows.sessions[0]!.parent_key, 'grand');
  assert.equal(rows.sessions[0]!.parent_tool_use_id, 't0');
});

test('sessionRows: onlyTurns keeps the rows of those turns, the session row sums them all', async () => {
  const { session } = await parseLines(lines);
  const second = session.turns[1]!.id;
  const rows = sessionRows(session, { onlyTurns: new Set([second]) });
  assert.deepEqual(
    rows.turns.map((t) => [t.index, t.prompt]),
    [[2, 'other way']],
  );
  // seq stays the atom's place in the whole session
  assert.deepEqual(
    rows.atoms.map((a) => [a.key, a.seq]),
    [
      ['u3', 5],
      ['a4', 6],
    ],
  );
  assert.deepEqual(
    rows.blocks.map((b) => b.key),
    ['u3:0', 'a4:0'],
  );
  assert.deepEqual(
    rows.usage_facts.map((f) => f.message_id),
    ['m3'],
  );
  assert.deepEqual(rows.tool_calls, []);
  assert.equal(rows.sessions[0]!.responses, 3);
});
