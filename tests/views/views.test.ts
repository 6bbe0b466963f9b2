import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decisions } from '../../src/views/decisions.ts';
import { positions } from '../../src/views/positions.ts';
import { segments } from '../../src/views/segments.ts';
import { toolCalls, wantedToolCalls } from '../../src/views/tool-calls.ts';
import { parseLines } from '../helpers/parse.ts';
import { assistant, text, toolResult, toolUse, user } from '../helpers/transcript.ts';

const queued = (uuid: string, parent: string, prompt: string, sec: number) => ({
  parentUuid: parent,
  isSidechain: false,
  type: 'attachment',
  uuid,
  timestamp: new Date(Date.parse('2026-03-01T10:00:00.000Z') + sec * 1000).toISOString(),
  sessionId: 'fixture-session',
  attachment: { type: 'queued_command', prompt, commandMode: 'prompt' },
});

const conversation = [
  user('p1', null, 'plan the refactor', 0, { promptSource: 'typed' }),
  assistant('a1', 'p1', toolUse('ask', 'AskUserQuestion', { questions: [] }), 1, { mid: 'm1', stop: 'tool_use' }),
  user('d1', 'a1', [toolResult('ask', 'User answered: keep the old API')], 10),
  assistant('a2', 'd1', toolUse('r1', 'Read'), 11, { mid: 'm2', stop: 'tool_use' }),
  assistant('a3', 'a2', toolUse('r2', 'Grep'), 11.5, { mid: 'm2', stop: 'tool_use' }),
  user('res1', 'a2', [toolResult('r1', 'file')], 12),
  user('res2', 'a3', [toolResult('r2', 'boom', true)], 14),
  queued('q1', 'res2', 'also update the docs', 15),
  assistant('a4', 'q1', text('Done.'), 20, { mid: 'm3', stop: 'end_turn' }),
  user('p2', 'a4', 'next', 30, { promptSource: 'queued' }),
  user('orphan', 'p2', [toolResult('ghost', 'from nowhere')], 31),
  assistant('a5', 'orphan', toolUse('r3', 'Bash'), 32, { mid: 'm4', stop: 'tool_use' }),
];

test('segments split a turn at its inputs (opener, decision, mid-turn prompt) and partition it', async () => {
  const r = await parseLines(conversation);
  const segs = segments(r.session);
  assert.deepEqual(
    segs.map((s) => [s.index, s.input, s.atoms.map((a) => a.uuid)]),
    [
      [0, 'p1', ['p1', 'a1']],
      [1, 'd1', ['d1', 'a2', 'a3', 'res1', 'res2']],
      [2, 'q1', ['q1', 'a4']],
      [0, 'p2', ['p2', 'orphan', 'a5']],
    ],
  );
  const turnAtoms = r.session.turns.flatMap((t) => t.atoms.map((a) => a.uuid));
  assert.deepEqual(
    segs.flatMap((s) => s.atoms.map((a) => a.uuid)),
    turnAtoms,
  );
  assert.deepEqual(
    [segs[1]?.t, segs[1]?.end],
    [Date.parse('2026-03-01T10:00:10.000Z'), Date.parse('2026-03-01T10:00:14.000Z')],
  );
});

test('positions: typed opener, absorbed mid-turn prompt, queued opener (by promptSource, or by a dequeue before it)', async () => {
  const r = await parseLines(conversation);
  assert.deepEqual(
    positions(r.session).map((p) => [p.uuid, p.position, p.label]),
    [
      ['p1', 'opener', 'typed'],
      ['q1', 'mid-turn', 'absorbed'],
      ['p2', 'opener', 'queued'],
    ],
  );
  const old = await parseLines([
    user('o1', null, 'first', 0),
    assistant('o2', 'o1', text('ok'), 1, { mid: 'x1', stop: 'end_turn' }),
    {
      type: 'queue-operation',
      operation: 'enqueue',
      content: 'second',
      timestamp: '2026-03-01T10:00:00.500Z',
      sessionId: 's',
    },
    { type: 'queue-operation', operation: 'dequeue', timestamp: '2026-03-01T10:00:01.500Z', sessionId: 's' },
    user('o3', 'o2', 'second', 1.6),
    assistant('o4', 'o3', text('ok'), 2, { mid: 'x2', stop: 'end_turn' }),
    user('o5', 'o4', 'third', 60),
  ]);
  assert.deepEqual(
    positions(old.session).map((p) => [p.uuid, p.label]),
    [
      ['o1', 'typed'],
      ['o3', 'queued'],
      ['o5', 'typed'],
    ],
  );
});

test('a decision is the AskUserQuestion result, with the choice read from it', async () => {
  const r = await parseLines(conversation);
  assert.deepEqual(
    decisions(r.session).map((d) => [d.uuid, d.block, d.tool, d.choice, d.is_error]),
    [['d1', 0, 'AskUserQuestion', 'User answered: keep the old API', false]],
  );
});

test('tool calls: parallel calls paired with their results and durations, orphans on both sides', async () => {
  const r = await parseLines(conversation);
  assert.deepEqual(
    toolCalls(r.session).map((c) => [c.tool_use_id, c.name, c.useUuid, c.resultUuid, c.duration_ms, c.is_error]),
    [
      ['ask', 'AskUserQuestion', 'a1', 'd1', 9000, false],
      ['r1', 'Read', 'a2', 'res1', 1000, false],
      ['r2', 'Grep', 'a3', 'res2', 2500, true],
      ['ghost', '', null, 'orphan', null, false],
      ['r3', 'Bash', 'a5', null, null, false],
    ],
  );
});

test('queryAtoms filters by author, kind, tool, error, time and text across sessions', async () => {
  const { queryAtoms, queryTurns } = await import('../../src/views/query.ts');
  const one = (await parseLines(conversation)).session;
  const uuids = (f: Parameters<typeof queryAtoms>[1]): string[] => queryAtoms([one], f).map((m) => m.atom.uuid);
  assert.deepEqual(uuids({ author: 'human' }), ['p1', 'q1', 'p2']);
  assert.deepEqual(uuids({ tool: 'Grep' }), ['a3', 'res2']);
  assert.deepEqual(uuids({ isError: true }), ['res2']);
  assert.deepEqual(uuids({ kind: 'assistant', from: Date.parse('2026-03-01T10:00:15Z') }), ['a4', 'a5']);
  assert.deepEqual(uuids({ text: 'OLD API' }), ['d1']);
  assert.deepEqual(
    queryTurns([one], { tool: 'Bash' }).map((t) => t.turn.trigger?.uuid),
    ['p2'],
  );
});

test('subagents: linked by the sidecar toolUseId, or by the prompt the Task call sent; parsed on request', async () => {
  const { mkdirSync, writeFileSync } = await import('node:fs');
  const { dirname, join } = await import('node:path');
  const { parseSession } = await import('../../src/session/parse-session.ts');
  const { findSubagents, parseSubagent } = await import('../../src/discover/find-subagents.ts');
  const { writeJsonl } = await import('../helpers/transcript.ts');
  const main = writeJsonl(
    [
      user('p', null, 'go', 0),
      assistant('t1', 'p', toolUse('toolu_meta', 'Task', { prompt: 'explore the parser' }), 1, {
        mid: 'm1',
        stop: 'tool_use',
      }),
      assistant('t2', 't1', toolUse('toolu_prompt', 'Agent', { prompt: 'count the tests' }), 1.5, {
        mid: 'm1',
        stop: 'tool_use',
      }),
    ],
    'main.jsonl',
  );
  const nested = join(dirname(main), 'main', 'subagents');
  mkdirSync(nested, { recursive: true });
  const sub = (uuid: string, text: string) => `${JSON.stringify(user(uuid, null, text, 2, { isSidechain: true }))}\n`;
  writeFileSync(join(nested, 'agent-a1.jsonl'), sub('x1', 'something else entirely'));
  writeFileSync(join(nested, 'agent-a1.meta.json'), JSON.stringify({ agentType: 'Explore', toolUseId: 'toolu_meta' }));
  writeFileSync(join(dirname(main), 'agent-b2.jsonl'), sub('y1', 'count the tests'));
  writeFileSync(join(dirname(main), 'agent-c3.jsonl'), sub('z1', 'unrelated warm-up'));
  const { session } = await parseSession([main]);
  const links = await findSubagents(session);
  assert.deepEqual(
    links.map((l) => [l.tool_use_id, l.path.slice(dirname(main).length), l.by]),
    [
      ['toolu_meta', '/main/subagents/agent-a1.jsonl', 'meta'],
      ['toolu_prompt', '/agent-b2.jsonl', 'prompt'],
    ],
  );
  const parsed = await parseSubagent(links[1] as (typeof links)[number]);
  assert.deepEqual(
    parsed.session.turns.map((t) => t.atoms.map((a) => [a.uuid, a.author])),
    [[['y1', 'system']]],
  );
});

test('wantedToolCalls: the calls of some turns, paired over the whole session, each with its occurrence', async () => {
  const r = await parseLines([
    user('p1', null, 'first', 0, { promptSource: 'typed' }),
    assistant('a1', 'p1', toolUse('x', 'Bash'), 1, { mid: 'm1', stop: 'tool_use' }),
    user('p2', 'a1', 'second', 2, { promptSource: 'typed' }),
    user('rx', 'p2', [toolResult('x', 'late', true)], 3),
    assistant('a2', 'rx', toolUse('y', 'Read'), 4, { mid: 'm2', stop: 'tool_use' }),
    user('ry', 'a2', [toolResult('y', 'file')], 5),
    user('p3', 'ry', 'third', 6, { promptSource: 'typed' }),
    assistant('a3', 'p3', toolUse('y', 'Read'), 7, { mid: 'm3', stop: 'tool_use' }),
    user('ry2', 'a3', [toolResult('y', 'again'), toolResult('y', 'twice')], 8),
  ]);
  const turns = r.session.turns.map((t) => t.id);
  assert.equal(turns.length, 3);
  const all = toolCalls(r.session);
  // x's use in turn 1, its result in turn 2: one call of turn 1; y twice (a use each), then an orphan y result
  assert.deepEqual(
    all.map((c) => [c.tool_use_id, c.useUuid, c.resultUuid, turns.indexOf(c.turnId) + 1, c.is_error]),
    [
      ['x', 'a1', 'rx', 1, true],
      ['y', 'a2', 'ry', 2, false],
      ['y', 'a3', 'ry2', 3, false],
      ['y', null, 'ry2', 3, false],
    ],
  );
  const later = new Set(turns.slice(1));
  const wanted = wantedToolCalls(r.session, (id) => later.has(id));
  // the same calls as the whole session's of turns 2 and 3 (x's result is no orphan), y's the 1st, 2nd and 3rd
  assert.deepEqual(
    wanted.map(([c]) => c),
    all.filter((c) => later.has(c.turnId)),
  );
  assert.deepEqual(
    wanted.map(([, n]) => n),
    [1, 2, 3],
  );
  // turn 3 alone, the pairing of turns 1 and 2 continued from the one kept of turn 1: y's 2nd and 3rd
  assert.deepEqual(
    wantedToolCalls(r.session, (id) => id === turns[2]).map(([c, n]) => [c.useUuid, c.resultUuid, n]),
    [
      ['a3', 'ry2', 2],
      [null, 'ry2', 3],
    ],
  );
  // turn 1 alone: x settled by a result in a turn not made
  assert.deepEqual(
    wantedToolCalls(r.session, (id) => id === turns[0]).map(([c, n]) => [c.tool_use_id, c.resultUuid, c.end, n]),
    [['x', 'rx', Date.parse('2026-03-01T10:00:03.000Z'), 1]],
  );
});
