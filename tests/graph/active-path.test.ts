import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseSession } from '../../src/session/parse-session.ts';
import { assertOfficialReader } from '../helpers/official-reader.ts';
import { codesOf, parseLines, uuidsOf } from '../helpers/parse.ts';
import {
  assistant,
  compactBoundary,
  progress,
  system,
  text,
  thinking,
  toolResult,
  toolUse,
  user,
  writeJsonl,
} from '../helpers/transcript.ts';

const end = { mid: 'm-end', stop: 'end_turn' };

test('a rewound branch is dropped: the branch holding the last line wins', async () => {
  const r = await parseLines([
    user('u1', null, 'first', 0),
    assistant('a1', 'u1', text('ok'), 1, { mid: 'm1', stop: 'end_turn' }),
    user('u2', 'a1', 'abandoned prompt', 2),
    assistant('a2', 'u2', text('abandoned answer'), 3, { mid: 'm2', stop: 'end_turn' }),
    user('u3', 'a1', 'rewritten prompt', 40),
    assistant('a3', 'u3', text('answer'), 41, { mid: 'm3', stop: 'end_turn' }),
  ]);
  assert.deepEqual(uuidsOf(r), ['u1', 'a1', 'u3', 'a3']);
  assert.deepEqual(
    r.session.records.filter((x) => x.onPath === false).map((x) => x.uuid),
    ['u2', 'a2'],
  );
});

test('F13: a row of an unknown type with uuid and parentUuid takes part in the chain, as a record on the path', async () => {
  const r = await parseLines([
    user('u1', null, 'first', 0),
    assistant('a1', 'u1', text('ok'), 1, { mid: 'm1', stop: 'end_turn' }),
    user('u2', 'a1', 'rewound prompt', 2),
    assistant('a2', 'u2', text('rewound answer'), 3, { mid: 'm2', stop: 'end_turn' }),
    { ...system('w1', 'a1', 'x', 30), type: 'rewind-marker', subtype: undefined },
    user('u3', 'w1', 'second', 40),
    assistant('a3', 'u3', text('answer'), 41, { mid: 'm3', stop: 'end_turn' }),
  ]);
  assert.deepEqual(
    r.session.turns.map((t) => t.atoms.map((a) => a.uuid)),
    [
      ['u1', 'a1'],
      ['u3', 'a3'],
    ],
  );
  assert.deepEqual(codesOf(r), []);
  assert.deepEqual(
    r.session.records.map((x) => [x.type, x.uuid, x.onPath]),
    [
      ['user', 'u2', false],
      ['assistant', 'a2', false],
      ['rewind-marker', 'w1', true],
    ],
  );
});

test("behind a gateway that answers with one message.id, a rewound turn's tool result is not put back (F4 relay)", async () => {
  const relay = (stop: string) => ({ mid: 'msg_relay_const', stop });
  const r = await parseLines([
    user('u1', null, 'first', 0),
    assistant('a1', 'u1', text('ok'), 1, relay('end_turn')),
    user('u2', 'a1', 'delete the logs', 2),
    assistant('a2', 'u2', toolUse('t1', 'Bash'), 3, relay('tool_use')),
    user('r1', 'a2', [toolResult('t1', 'removed')], 4),
    user('u3', 'a1', 'no, keep them', 20),
    assistant('a3', 'u3', text('kept'), 21, relay('end_turn')),
  ]);
  assert.deepEqual(uuidsOf(r), ['u1', 'a1', 'u3', 'a3']);
  assert.deepEqual(
    r.session.records.filter((x) => x.onPath === false).map((x) => x.uuid),
    ['u2', 'a2', 'r1'],
  );
});

test('F13: a row of an unknown type is never the leaf, and never replaces a message that has its uuid', async () => {
  const unknown = (uuid: string, parent: string | null, sec: number) => ({
    ...system(uuid, parent, 'x', sec),
    type: 'frame-link',
    subtype: undefined,
  });
  const r = await parseLines([
    user('u1', null, 'first', 0),
    assistant('a1', 'u1', text('ok'), 1, { mid: 'm1', stop: 'end_turn' }),
    user('u2', 'a1', 'second', 2),
    assistant('a2', 'u2', text('done'), 3, { mid: 'm2', stop: 'end_turn' }),
    unknown('a2', 'u2', 4), // reuses a2's uuid
    unknown('f1', 'a1', 5), // last line, hanging on a1: not a branch that rewinds u2
  ]);
  assert.deepEqual(
    r.session.turns.map((t) => t.atoms.map((a) => a.uuid)),
    [
      ['u1', 'a1'],
      ['u2', 'a2'],
    ],
  );
  assert.equal(r.session.turns[1]?.atoms[1]?.message?.content[0]?.type, 'text');
  assert.deepEqual(codesOf(r), ['DUPLICATE_UUID']);
  assert.deepEqual(
    r.session.records.map((x) => [x.type, x.uuid, x.onPath]),
    [
      ['frame-link', 'a2', false],
      ['frame-link', 'f1', false],
    ],
  );
});

test('/clear stops the walk: a root with parentUuid null hides what came before it', async () => {
  const r = await parseLines([
    user('u1', null, 'old', 0),
    assistant('a1', 'u1', text('old answer'), 1, end),
    user('c1', null, '<command-name>/clear</command-name>', 10),
    user('u2', 'c1', 'new', 11),
    assistant('a2', 'u2', text('new answer'), 12, { mid: 'm2', stop: 'end_turn' }),
  ]);
  assert.deepEqual(uuidsOf(r), ['c1', 'u2', 'a2']);
});

test('parallel tool calls: every sibling line and tool result is put back after its response', async () => {
  const r = await parseLines([
    user('u1', null, 'look', 0),
    assistant('a1', 'u1', toolUse('t1', 'Read'), 1, { mid: 'm1', stop: 'tool_use' }),
    assistant('a2', 'a1', toolUse('t2', 'Grep'), 1.1, { mid: 'm1', stop: 'tool_use' }),
    user('r1', 'a1', [toolResult('t1', 'one')], 2),
    user('r2', 'a2', [toolResult('t2', 'two')], 2.5),
    assistant('a3', 'r2', text('done'), 3, { mid: 'm2', stop: 'end_turn' }),
  ]);
  assert.deepEqual(uuidsOf(r), ['u1', 'a1', 'a2', 'r1', 'r2', 'a3']);
  assert.equal(r.session.turns.length, 1);
});

test('streaming tool execution: a call hanging on the result of a put-back call comes back, with its result, in file position', async () => {
  const m1 = { mid: 'm1', stop: 'tool_use' };
  const lines = [
    user('u1', null, 'look', 0),
    assistant('a1', 'u1', thinking('plan'), 1, m1),
    assistant('a2', 'a1', toolUse('t1', 'Read'), 2, m1),
    assistant('a3', 'a2', toolUse('t2', 'Grep'), 2.1, m1),
    user('r1', 'a2', [toolResult('t1', 'one')], 3), // off the walk, hangs on a path call
    assistant('a4', 'r1', toolUse('t3', 'Read'), 3.5, m1), // hangs on r1, itself put back
    user('r4', 'a4', [toolResult('t3', 'three')], 4),
    assistant('a5', 'r4', toolUse('t4', 'Glob'), 4.5, m1), // one level further
    user('r5', 'a5', [toolResult('t4', 'four')], 5),
    user('r2', 'a3', [toolResult('t2', 'two')], 6),
    assistant('b1', 'r2', text('done'), 7, { mid: 'm2', stop: 'end_turn' }),
  ];
  for (const view of ['full', 'context'] as const) {
    const r = await parseLines(lines, { view });
    // after the response's last path line (a3), the put-back lines in file position, then the walk goes on
    assert.deepEqual(uuidsOf(r), ['u1', 'a1', 'a2', 'a3', 'r1', 'a4', 'r4', 'a5', 'r5', 'r2', 'b1'], view);
    assert.deepEqual([codesOf(r), r.session.records.filter((x) => x.onPath === false)], [[], []], view);
  }
  assert.equal(await assertOfficialReader(writeJsonl(lines), 'call under a put-back result'), 11);
});

test('a call hanging on a tool result of the path comes back; a line of another response there stays off', async () => {
  const m1 = { mid: 'm1', stop: 'tool_use' };
  const lines = [
    user('u1', null, 'look', 0),
    assistant('a1', 'u1', toolUse('t1', 'Read'), 1, m1),
    user('r1', 'a1', [toolResult('t1', 'one')], 2),
    assistant('a2', 'r1', toolUse('t2', 'Grep'), 2.5, m1), // same response, off the walk
    user('r2', 'a2', [toolResult('t2', 'two')], 3),
    assistant('x1', 'r1', text('a retried answer'), 3.5, { mid: 'm9', stop: 'end_turn' }), // another response
    assistant('a3', 'r1', toolUse('t3', 'Read'), 4, m1),
    user('r3', 'a3', [toolResult('t3', 'three')], 5),
    assistant('b1', 'r3', text('done'), 6, { mid: 'm2', stop: 'end_turn' }),
  ];
  const r = await parseLines(lines);
  assert.deepEqual(uuidsOf(r), ['u1', 'a1', 'r1', 'a3', 'a2', 'r2', 'r3', 'b1']);
  assert.deepEqual(
    r.session.records.filter((x) => x.onPath === false).map((x) => x.uuid),
    ['x1'],
  );
  assert.equal(await assertOfficialReader(writeJsonl(lines), 'call under a path result'), 8);
});

test('a chain of 3,000 calls, each hanging on the result of the one before, off the walk, all come back', async () => {
  const m1 = { mid: 'm1', stop: 'tool_use' };
  const n = 3000;
  const lines = [
    user('u1', null, 'look', 0),
    assistant('a0', 'u1', toolUse('t0', 'Read'), 1, m1),
    assistant('b0', 'a0', toolUse('s0', 'Read'), 1, m1),
  ];
  for (let i = 0; i < n; i++) {
    lines.push(user(`r${i}`, i === 0 ? 'a0' : `a${i}`, [toolResult(`t${i}`, 'x')], 2));
    lines.push(assistant(`a${i + 1}`, `r${i}`, toolUse(`t${i + 1}`, 'Read'), 2, m1));
  }
  lines.push(
    user('rb', 'b0', [toolResult('s0', 'x')], 3),
    assistant('end', 'rb', text('done'), 4, { mid: 'm2', stop: 'end_turn' }),
  );
  const r = await parseLines(lines);
  const uuids = uuidsOf(r);
  assert.equal(uuids.length, 2 * n + 5);
  assert.deepEqual(
    [uuids.slice(0, 6), uuids.slice(-3)],
    [
      ['u1', 'a0', 'b0', 'r0', 'a1', 'r1'],
      [`a${n}`, 'rb', 'end'],
    ],
  );
});

test('progress rows are bridged: a line whose parent is a progress row hangs on its ancestor', async () => {
  const r = await parseLines([
    user('u1', null, 'go', 0),
    assistant('a1', 'u1', toolUse('t1', 'Bash'), 1, { mid: 'm1', stop: 'tool_use' }),
    progress('p1', 'a1', 1.5),
    progress('p2', 'p1', 1.6),
    progress('p3', 'a1', 1.7), // a side row nothing hangs on
    user('r1', 'p2', [toolResult('t1', 'ok')], 2),
    assistant('a2', 'r1', text('done'), 3, end),
  ]);
  assert.deepEqual(uuidsOf(r), ['u1', 'a1', 'r1', 'a2']);
  assert.deepEqual(codesOf(r), []);
  // the rows the path runs through lie on it
  assert.deepEqual(
    r.session.records.map((x) => [x.uuid, x.onPath]),
    [
      ['p1', true],
      ['p2', true],
      ['p3', false],
    ],
  );
  // so do those a compaction's logicalParentUuid (full view) or the leaf checkpoint names
  const stitched = await parseLines([
    user('u1', null, 'go', 0),
    assistant('a1', 'u1', text('hi'), 1, end),
    progress('p1', 'a1', 1.5),
    compactBoundary('b1', 'p1', 2),
    user('s1', 'b1', 'This session is being continued…', 2.1, { isCompactSummary: true }),
    progress('p2', 's1', 3),
    { type: 'last-prompt', lastPrompt: 'go', leafUuid: 'p2', sessionId: 'fixture-session' },
  ]);
  assert.deepEqual(uuidsOf(stitched), ['u1', 'a1', 'b1', 's1']);
  assert.deepEqual(
    stitched.session.records.filter((x) => x.type === 'progress').map((x) => [x.uuid, x.onPath]),
    [
      ['p1', true],
      ['p2', true],
    ],
  );
});

test('a progress row sharing its uuid with a line is bridged the same whether or not that line is just before the child', async () => {
  const lines = (between: boolean) => [
    user('u1', null, 'one', 0),
    progress('x', 'u1', 1),
    user('x', 'u1', 'two', 2),
    ...(between ? [system('s1', 'x', 'informational', 2.5)] : []),
    user('u4', 'x', 'three', 3),
  ];
  const adjacent = await parseLines(lines(false));
  const apart = await parseLines(lines(true));
  assert.deepEqual(
    adjacent.session.turns.map((t) => t.trigger?.uuid),
    ['u1', 'u4'],
  );
  assert.deepEqual(
    apart.session.turns.map((t) => t.trigger?.uuid),
    ['u1', 'u4'],
  );
});

test('a phantom parent within 5 s is bridged by time (PHANTOM_PARENT); beyond, a HISTORY_GAP continues in file order', async () => {
  const near = await parseLines([
    user('u1', null, 'go', 0),
    assistant('a1', 'u1', text('hi'), 1, end),
    user('u2', 'never-written', 'next', 3),
  ]);
  assert.deepEqual([uuidsOf(near), codesOf(near)], [['u1', 'a1', 'u2'], ['PHANTOM_PARENT']]);
  const far = await parseLines([
    user('u1', null, 'go', 0),
    assistant('a1', 'u1', text('hi'), 1, end),
    '{"type":"file-history-snapshot","messageId":"x","snapshot":{}}',
    user('u2', 'never-written', 'next', 600),
  ]);
  assert.deepEqual([uuidsOf(far), codesOf(far)], [['u1', 'a1', 'u2'], ['HISTORY_GAP']]);
  assert.equal(far.diagnostics[0]?.line, 4);
  // over progress rows: the message names the row the line hangs on, where the missing parent was named
  const bridged = await parseLines([
    user('u1', null, 'go', 0),
    assistant('a1', 'u1', text('hi'), 1, end),
    progress('p1', 'never-written', 500),
    user('u2', 'p1', 'next', 600),
  ]);
  assert.deepEqual([codesOf(bridged), bridged.diagnostics[0]?.line], [['HISTORY_GAP'], 4]);
  assert.match(
    bridged.diagnostics[0]?.message ?? '',
    /^parent never-written \(reached through progress row p1, this line's parent\) was never written/,
  );
});

test('a history gap before a Stop hook: the context view resumes after it, the full view goes on in file order', async () => {
  // the response's last block (X) was never written; the Stop hook's progress rows name it
  const lines = [
    user('u1', null, 'go', 0),
    assistant('a1', 'u1', thinking('hm'), 1, { mid: 'm1' }),
    progress('p1', 'X', 5),
    progress('p2', 'p1', 5.1),
    system('s1', 'p2', 'stop_hook_summary', 8, { hookCount: 1, hookErrors: [] }),
    system('d1', 's1', 'turn_duration', 8.1, { durationMs: 8100 }),
    user('u2', 'd1', 'next', 20),
    assistant('a2', 'u2', text('ok'), 21, end),
  ];
  const context = await parseLines(lines, { view: 'context' });
  assert.deepEqual(uuidsOf(context), ['u2', 'a2']);
  assert.deepEqual(
    context.diagnostics.map((d) => [d.code, d.line, d.uuid]),
    [['HISTORY_GAP', 5, 's1']],
  );
  assert.match(
    context.diagnostics[0]?.message ?? '',
    /^parent X \(reached through progress row p2, this line's parent\) was never written; the resumed conversation starts at this line$/,
  );
  assert.deepEqual(
    context.session.records.filter((x) => x.onPath === true).map((x) => x.uuid),
    ['p1', 'p2', 's1', 'd1'],
  );
  const full = await parseLines(lines, { view: 'full' });
  assert.deepEqual(
    full.session.turns.map((t) => t.atoms.map((a) => a.uuid)),
    [
      ['u1', 'a1'],
      ['u2', 'a2'],
    ],
  );
  assert.deepEqual(
    full.diagnostics.map((d) => [d.code, d.line]),
    [['HISTORY_GAP', 5]],
  );
  assert.match(full.diagnostics[0]?.message ?? '', /continuing at the previous line in file order, a1$/);
  // within 5 s a line stands in for the missing parent in both views (the CLI resumes through it)
  const near = lines.map((l) =>
    l['uuid'] === 's1' ? system('s1', 'p2', 'stop_hook_summary', 4, { hookCount: 1, hookErrors: [] }) : l,
  );
  for (const view of ['context', 'full'] as const) {
    const r = await parseLines(near, { view });
    assert.deepEqual([uuidsOf(r), codesOf(r)], [['u1', 'a1', 'u2', 'a2'], ['PHANTOM_PARENT']], view);
  }
  // the official reader: the same past the gap; at the bridge within 5 s it stops (u2, a2), the CLI does not
  assert.equal(await assertOfficialReader(writeJsonl(lines), 'gap'), 2);
  assert.equal(await assertOfficialReader(writeJsonl(near), 'bridge within 5 s'), 2);
});

test('a parentUuid cycle stops the walk with CYCLE instead of looping', async () => {
  const r = await parseLines([user('x', 'y', 'a', 0), user('y', 'x', 'b', 1)]);
  assert.deepEqual([uuidsOf(r), codesOf(r)], [['x', 'y'], ['CYCLE']]);
});

test('full view stitches a compaction through logicalParentUuid; context view starts at the boundary', async () => {
  const lines = [
    user('u1', null, 'before', 0),
    assistant('a1', 'u1', text('pre'), 1, end),
    compactBoundary('b', 'a1', 10),
    user('s', 'b', 'This session is being continued…', 10, { isCompactSummary: true }),
    user('u2', 's', 'after', 20),
    assistant('a2', 'u2', text('post'), 21, { mid: 'm2', stop: 'end_turn' }),
  ];
  const full = await parseLines(lines);
  assert.deepEqual(uuidsOf(full), ['u1', 'a1', 'b', 's', 'u2', 'a2']);
  const boundary = full.session.turns.flatMap((t) => t.atoms).find((a) => a.uuid === 'b');
  assert.deepEqual(
    [boundary?.type, boundary?.subtype, boundary?.compact_metadata],
    ['system', 'compact_boundary', { trigger: 'auto', pre_tokens: 150000 }],
  );
  const context = await parseLines(lines, { view: 'context' });
  assert.deepEqual(uuidsOf(context), ['b', 's', 'u2', 'a2']);
});

test('an unwritten logicalParentUuid falls back to preservedSegment.tailUuid, else to file order', async () => {
  const head = [
    user('u1', null, 'before', 0),
    assistant('a1', 'u1', text('pre'), 1, end),
    user('u9', 'a1', 'dead end', 2),
  ];
  const tail = await parseLines([
    ...head,
    compactBoundary('b', 'ghost', 10, { preservedSegment: { headUuid: 'u1', anchorUuid: 's', tailUuid: 'a1' } }),
    user('s', 'b', 'summary', 10, { isCompactSummary: true }),
  ]);
  assert.deepEqual([uuidsOf(tail), codesOf(tail)], [['u1', 'a1', 'b', 's'], ['COMPACT_PARENT_FALLBACK']]);
  const order = await parseLines([
    ...head,
    compactBoundary('b', 'ghost', 10),
    user('s', 'b', 'summary', 10, { isCompactSummary: true }),
  ]);
  assert.deepEqual([uuidsOf(order), codesOf(order)], [['u1', 'a1', 'u9', 'b', 's'], ['COMPACT_PARENT_FALLBACK']]);
});

test('context view relinks preserved messages after the summary (preservedSegment)', async () => {
  const r = await parseLines(
    [
      user('old', null, 'old history', 0),
      assistant('a0', 'old', text('old answer'), 1, end),
      user('h', 'a0', 'kept prompt', 2),
      assistant('t', 'h', text('kept answer'), 3, { mid: 'm1', stop: 'end_turn' }),
      compactBoundary('b', 't', 10, { preservedSegment: { headUuid: 'h', anchorUuid: 's', tailUuid: 't' } }),
      user('s', 'b', 'summary', 10, { isCompactSummary: true }),
      user('n', 's', 'new prompt', 20),
      assistant('a9', 'n', text('new answer'), 21, { mid: 'm9', stop: 'end_turn' }),
    ],
    { view: 'context' },
  );
  assert.deepEqual(new Set(uuidsOf(r)), new Set(['b', 's', 'h', 't', 'n', 'a9']));
});

test('a last-prompt checkpoint written after the last line picks the leaf (rewind exited without sending)', async () => {
  const r = await parseLines([
    user('u1', null, 'one', 0),
    assistant('a1', 'u1', text('one'), 1, end),
    user('u2', 'a1', 'two', 2),
    assistant('a2', 'u2', text('two'), 3, { mid: 'm2', stop: 'end_turn' }),
    { type: 'last-prompt', lastPrompt: 'one', leafUuid: 'a1', rewound: true, sessionId: 's' },
  ]);
  assert.deepEqual(uuidsOf(r), ['u1', 'a1']);
  const cleared = await parseLines([
    user('u1', null, 'one', 0),
    { type: 'last-prompt', leafUuid: null, explicit: true },
  ]);
  assert.deepEqual([uuidsOf(cleared), codesOf(cleared)], [[], ['SESSION_CLEARED']]);
});

test('a uuid written twice in one file: later content, first position, DUPLICATE_UUID', async () => {
  const r = await parseLines([
    user('u1', null, 'first text', 0),
    assistant('a1', 'u1', text('answer'), 1, end),
    user('u1', null, 'rewritten text', 0),
  ]);
  assert.deepEqual(uuidsOf(r), ['u1', 'a1']);
  assert.deepEqual(r.session.turns[0]?.atoms[0]?.message?.content, [{ type: 'text', text: 'rewritten text' }]);
  assert.deepEqual(codesOf(r), ['DUPLICATE_UUID']);
});

test('several files: fork copies are one atom each, tagged with the earliest file that holds them', async () => {
  const original = [user('u1', null, 'one', 0), assistant('a1', 'u1', text('one'), 1, end)];
  const fork = [
    ...original,
    user('u2', 'a1', 'two', 100),
    assistant('a2', 'u2', text('two'), 101, { mid: 'm2', stop: 'end_turn' }),
  ];
  const r = await parseSession([writeJsonl(fork, 'fork-b.jsonl'), writeJsonl(original, 'orig-a.jsonl')]);
  const atoms = r.session.turns.flatMap((t) => t.atoms);
  assert.deepEqual(
    atoms.map((a) => [a.uuid, a.fsid]),
    [
      ['u1', 'orig-a'],
      ['a1', 'orig-a'],
      ['u2', 'fork-b'],
      ['a2', 'fork-b'],
    ],
  );
  assert.equal(r.session.leafFsid, 'fork-b');
  assert.equal(r.session.turns.length, 2);
});

test('system rows other than compact_boundary are records on the path, not atoms', async () => {
  const r = await parseLines([
    user('u1', null, 'go', 0),
    assistant('a1', 'u1', text('hi'), 1, end),
    system('d1', 'a1', 'turn_duration', 1.5, { durationMs: 1500 }),
  ]);
  assert.deepEqual(uuidsOf(r), ['u1', 'a1']);
  assert.deepEqual(
    r.session.records.map((x) => [x.type, x.subtype, x.onPath]),
    [['system', 'turn_duration', true]],
  );
});

test('1.0.x: a later branch of local commands only does not hide the conversation (COMMAND_BRANCH)', async () => {
  const r = await parseLines([
    user('cav', null, 'Caveat: The messages below were generated by the user while running local commands.', 0, {
      isMeta: true,
    }),
    user('u1', 'cav', 'Please review this patch', 1),
    assistant('a1', 'u1', text('Looks good.'), 2, { mid: 'm1' }),
    user('b1', 'cav', '<bash-input>uv run pytest</bash-input>', 30),
    user('b2', 'b1', '<bash-stdout>3 passed</bash-stdout>', 31),
  ]);
  assert.deepEqual(uuidsOf(r), ['cav', 'u1', 'a1']);
  assert.deepEqual(codesOf(r), ['COMMAND_BRANCH']);
  assert.deepEqual(
    r.session.records.filter((x) => x.onPath === false).map((x) => x.uuid),
    ['b1', 'b2'],
  );
});

test('a message.id reused across a rewind (gateways) does not bring the rewound answer back', async () => {
  const same = { mid: 'msg_same', stop: 'end_turn' };
  const r = await parseLines([
    user('u1', null, 'first', 0),
    assistant('a1', 'u1', text('ok'), 1, same),
    user('u2', 'a1', 'abandoned', 2),
    assistant('a2', 'u2', text('BAD ANSWER'), 3, same),
    user('u3', 'a1', 'rewritten', 40),
    assistant('a3', 'u3', text('good answer'), 41, same),
  ]);
  assert.deepEqual(uuidsOf(r), ['u1', 'a1', 'u3', 'a3']);
});

// Each fallback looks back at most FALLBACK_SCAN_LIMIT lines; unbounded, this file took over a minute.
test('50,000 lines whose parents are all missing, all stamped the same second, still chain up', async () => {
  const lines = Array.from({ length: 50000 }, (_, i) => user(`u${i}`, `ghost${i}`, 'x', 0));
  const r = await parseLines(lines);
  assert.equal(uuidsOf(r).length, 50000);
  assert.deepEqual(new Set(codesOf(r)), new Set(['PHANTOM_PARENT', 'HISTORY_GAP']));
});
