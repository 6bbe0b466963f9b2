import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseSession } from '../../src/session/parse-session.ts';
import { parseLines } from '../helpers/parse.ts';
import { assistant, system, text, thinking, toolResult, toolUse, user, writeJsonl } from '../helpers/transcript.ts';

const summary = (r: Awaited<ReturnType<typeof parseLines>>): Array<[string | null, boolean, string[]]> =>
  r.session.turns.map((t) => [t.trigger?.uuid ?? null, t.ended, t.atoms.map((a) => a.uuid)]);

test('prompts after end_turn open turns; system atoms fold in; ended from stop_reason', async () => {
  const r = await parseLines([
    user('u1', null, 'one', 0, { promptSource: 'typed' }),
    assistant('a1', 'u1', toolUse('t1', 'Bash'), 1, { mid: 'm1', stop: 'tool_use' }),
    user('r1', 'a1', [toolResult('t1', 'ok')], 2),
    assistant('a2', 'r1', text('done'), 3, { mid: 'm2', stop: 'end_turn' }),
    user('n1', 'a2', '<task-notification><status>completed</status></task-notification>', 4, {
      promptSource: 'system',
    }),
    user('u2', 'n1', 'two', 5, { promptSource: 'sdk' }),
    assistant('a3', 'u2', toolUse('t2', 'Read'), 6, { mid: 'm3', stop: 'tool_use' }),
  ]);
  assert.deepEqual(summary(r), [
    ['u1', true, ['u1', 'a1', 'r1', 'a2', 'n1']],
    ['u2', false, ['u2', 'a3']],
  ]);
  const first = r.session.turns[0];
  assert.equal(first?.id, `${r.session.rompUuid}:${first?.t}:${first?.id.split(':').at(-1)}`);
  assert.equal(first?.t, Date.parse('2026-03-01T10:00:00.000Z'));
  assert.equal(first?.end, Date.parse('2026-03-01T10:00:04.000Z'));
});

test('a queued_command attachment is a human atom absorbed mid-turn, not an opener', async () => {
  const r = await parseLines([
    user('u1', null, 'refactor', 0),
    assistant('a1', 'u1', toolUse('t1', 'Edit'), 1, { mid: 'm1', stop: 'tool_use' }),
    user('r1', 'a1', [toolResult('t1', 'ok')], 2),
    {
      parentUuid: 'r1',
      isSidechain: false,
      type: 'attachment',
      uuid: 'q1',
      timestamp: '2026-03-01T10:00:02.500Z',
      sessionId: 'fixture-session',
      attachment: { type: 'queued_command', prompt: 'also rename it', commandMode: 'prompt' },
    },
    assistant('a2', 'q1', text('done, and renamed'), 3, { mid: 'm2', stop: 'end_turn' }),
  ]);
  assert.deepEqual(summary(r), [['u1', true, ['u1', 'a1', 'r1', 'q1', 'a2']]]);
  const q = r.session.turns[0]?.atoms[3];
  assert.deepEqual(
    [q?.type, q?.author, q?.message?.content],
    ['user', 'human', [{ type: 'text', text: 'also rename it' }]],
  );
});

test('stop_reason null on every line (≤2.1.20): a prompt with no pending tool_use opens a turn', async () => {
  const old = { extra: { version: '1.0.98' } };
  const r = await parseLines([
    user('u1', null, 'one', 0),
    assistant('a1', 'u1', toolUse('t1', 'Bash'), 1, { mid: 'm1', ...old }),
    user('r1', 'a1', [toolResult('t1', 'ok')], 2),
    assistant('a2', 'r1', text('done'), 3, { mid: 'm2', ...old }),
    user('u2', 'a2', 'two', 4),
    assistant('a3', 'u2', text('answer two'), 5, { mid: 'm3', ...old }),
  ]);
  assert.deepEqual(summary(r), [
    ['u1', true, ['u1', 'a1', 'r1', 'a2']],
    ['u2', false, ['u2', 'a3']],
  ]);
});

test('an interrupt ends the turn; the next prompt opens a new one', async () => {
  const r = await parseLines([
    user('u1', null, 'long job', 0),
    assistant('a1', 'u1', toolUse('t1', 'Bash'), 1, { mid: 'm1', stop: 'tool_use' }),
    user('r1', 'a1', [toolResult('t1', "The user doesn't want to proceed with this tool use.", true)], 2),
    user('i1', 'r1', [{ type: 'text', text: '[Request interrupted by user for tool use]' }], 2),
    user('u2', 'i1', 'do something else', 5),
    assistant('a2', 'u2', text('ok'), 6, { mid: 'm2', stop: 'end_turn' }),
  ]);
  assert.deepEqual(summary(r), [
    ['u1', true, ['u1', 'a1', 'r1', 'i1']],
    ['u2', true, ['u2', 'a2']],
  ]);
});

test('an interrupt marker after blanks (ASCII or Unicode) still ends the turn; a tool output that merely mentions it does not', async () => {
  for (const [marker, ended] of [
    ['\n  [Request interrupted by user]', true],
    ['\u00a0[Request interrupted by user]', true],
    ['see [Request interrupted by user]', false],
    ['\u001b[Request interrupted by user]', false],
  ] as const) {
    const r = await parseLines([
      user('u1', null, 'long job', 0),
      assistant('a1', 'u1', toolUse('t1', 'Bash'), 1, { mid: 'm1', stop: 'tool_use' }),
      user('r1', 'a1', [toolResult('t1', marker)], 2),
      user('u2', 'r1', 'next', 5),
    ]);
    assert.deepEqual(summary(r)[0], ['u1', ended, ['u1', 'a1', 'r1']], JSON.stringify(marker));
  }
});

test('a reply after end_turn without a prompt is an autonomous turn that starts at what provoked it', async () => {
  const r = await parseLines([
    user('u1', null, 'start a background job', 0),
    assistant('a1', 'u1', text('started'), 1, { mid: 'm1', stop: 'end_turn' }),
    user('n1', 'a1', '<task-notification><status>completed</status></task-notification>', 60, {
      origin: { kind: 'task-notification' },
    }),
    assistant('a2', 'n1', text('the job finished'), 61, { mid: 'm2', stop: 'end_turn' }),
  ]);
  assert.deepEqual(summary(r), [
    ['u1', true, ['u1', 'a1']],
    [null, true, ['n1', 'a2']],
  ]);
});

test('turn ids are stable when the session is read again with one more file', async () => {
  const lines = [user('u1', null, 'one', 0), assistant('a1', 'u1', text('one'), 1, { mid: 'm1', stop: 'end_turn' })];
  const alone = await parseSession([writeJsonl(lines)], { rompUuid: 'R' });
  const more = await parseSession(
    [
      writeJsonl(lines),
      writeJsonl(
        [user('u2', 'a1', 'two', 100), assistant('a2', 'u2', text('two'), 101, { mid: 'm2', stop: 'end_turn' })],
        'resume.jsonl',
      ),
    ],
    { rompUuid: 'R' },
  );
  assert.equal(more.session.turns[0]?.id, alone.session.turns[0]?.id);
  assert.equal(more.session.turns.length, 2);
});

test('a prompt after a tool_use that was never answered opens its own turn (known-failures F11)', async () => {
  const r = await parseLines([
    user('u1', null, 'run the tests', 0, { promptSource: 'typed' }),
    assistant('a1', 'u1', toolUse('t1', 'Bash'), 1, { mid: 'm1', stop: 'tool_use' }),
    user('u2', 'a1', 'never mind, explain the code', 600, { promptSource: 'typed' }),
    assistant('a2', 'u2', text('It parses lines.'), 601, { mid: 'm2', stop: 'end_turn' }),
  ]);
  assert.deepEqual(summary(r), [
    ['u1', false, ['u1', 'a1']],
    ['u2', true, ['u2', 'a2']],
  ]);
});

/** Lines as Claude Code before 2.1.112 wrote them: an absorbed prompt has no line of its own. */
const v2196 = (lines: Array<Record<string, unknown>>) =>
  lines.map((l) => (l['type'] === 'queue-operation' ? l : { ...l, version: '2.1.96' }));
const q = (operation: string, sec: number, content?: unknown) => ({
  type: 'queue-operation',
  operation,
  timestamp: new Date(Date.parse('2026-03-01T10:00:00.000Z') + sec * 1000).toISOString(),
  sessionId: 'fixture-session',
  ...(content === undefined ? {} : { content }),
});

/** A turn whose Bash call is answered while `prompt` is typed: u1, a1 (tool_use), enqueue, r1, remove, then `more`,
 * then a2. */
const absorbedTurn = (prompt: string, ...more: Array<Record<string, unknown>>): Array<Record<string, unknown>> => [
  user('u1', null, 'first', 0),
  assistant('a1', 'u1', toolUse('t1', 'Bash'), 1, { mid: 'm1', stop: 'tool_use' }),
  q('enqueue', 1.5, prompt),
  user('r1', 'a1', [toolResult('t1', 'ok')], 2),
  q('remove', 2.5),
  ...more,
  assistant('a2', String(more.at(-1)?.['uuid'] ?? 'r1'), text('done'), 3, { mid: 'm2', stop: 'end_turn' }),
];

test('F14: a prompt absorbed mid-turn and known only from enqueue … remove becomes a generated human atom in the turn', async () => {
  const r = await parseLines(
    v2196([
      user('u1', null, 'refactor', 0),
      assistant('a1', 'u1', toolUse('t1', 'Edit'), 1, { mid: 'm1', stop: 'tool_use' }),
      q('enqueue', 1.5, 'also rename it'),
      q('enqueue', 1.6, 'and ignore this one'),
      q('popAll', 1.7),
      user('r1', 'a1', [toolResult('t1', 'ok')], 2),
      q('enqueue', 2.1, 'keep the old name too'),
      q('remove', 2.2),
      assistant('a2', 'r1', text('done'), 3, { mid: 'm2', stop: 'end_turn' }),
      q('enqueue', 3.5, 'next task'),
      q('dequeue', 10),
      user('u2', 'a2', 'next task', 10, { promptSource: 'queued' }),
    ]),
  );
  assert.deepEqual(summary(r), [
    ['u1', true, ['u1', 'a1', 'r1', 'queued:fixture-session:7', 'a2']],
    ['u2', false, ['u2']],
  ]);
  const generated = r.session.turns[0]?.atoms[3];
  assert.deepEqual(
    [generated?.author, generated?.message?.content, generated?.t],
    ['human', [{ type: 'text', text: 'keep the old name too' }], Date.parse('2026-03-01T10:00:02.200Z')],
  );
});

test('F14 replay: a notification delivered at idle without dequeue leaves the queue; each remove takes the prompt, placed after the line before it', async () => {
  const note = '<task-notification><task-id>b1</task-id><status>completed</status></task-notification>';
  const r = await parseLines(
    v2196([
      user('u1', null, 'yes', 0),
      assistant('a1', 'u1', text('started in the background'), 1, { mid: 'm1', stop: 'end_turn' }),
      q('enqueue', 2, note),
      user('n1', 'a1', note, 3), // delivered at idle: no dequeue written (2.1.39)
      assistant('a2', 'n1', toolUse('t1', 'Bash'), 4, { mid: 'm2', stop: 'tool_use' }),
      q('enqueue', 4.5, 'yes'),
      q('enqueue', 4.6, note), // a second notification, waiting for idle
      user('r1', 'a2', [toolResult('t1', 'ok')], 5),
      q('remove', 5.5), // "yes", not the notification ahead of it
      assistant('a3', 'r1', toolUse('t2', 'Bash'), 6, { mid: 'm3', stop: 'tool_use' }),
      q('enqueue', 6.5, [
        { type: 'text', text: 'check the logs' },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AA==' } },
      ]),
      user('r2', 'a3', [toolResult('t2', 'ok')], 7),
      q('remove', 7.5),
      assistant('a4', 'r2', text('done'), 8, { mid: 'm4', stop: 'end_turn' }),
    ]),
  );
  assert.deepEqual(summary(r), [
    ['u1', true, ['u1', 'a1']],
    [null, true, ['n1', 'a2', 'r1', 'queued:fixture-session:6', 'a3', 'r2', 'queued:fixture-session:11', 'a4']],
  ]);
  const [yes, logs] = [r.session.turns[1]?.atoms[3], r.session.turns[1]?.atoms[6]];
  // u1 said "yes" too, before the enqueue: a repeated short prompt is not taken for a delivered one
  assert.deepEqual(
    [yes?.author, yes?.t, yes?.message?.content],
    ['human', Date.parse('2026-03-01T10:00:05.500Z'), [{ type: 'text', text: 'yes' }]],
  );
  assert.deepEqual([logs?.author, logs?.message?.content.map((b) => b.type)], ['human', ['text', 'image']]);
});

test('F14 replay: no atom for a prompt absorbed into a rewound turn, a slash command, or one whose queued_command line follows; none from 2.1.112', async () => {
  const rewound = await parseLines(
    v2196([
      user('u1', null, 'first', 0),
      assistant('a1', 'u1', text('ok'), 1, { mid: 'm1', stop: 'end_turn' }),
      user('u2', 'a1', 'try this', 2),
      assistant('a2', 'u2', toolUse('t1', 'Bash'), 3, { mid: 'm2', stop: 'tool_use' }),
      q('enqueue', 3.5, 'and the logs too'),
      q('enqueue', 3.6, '/mcp'),
      user('r1', 'a2', [toolResult('t1', 'ok')], 4),
      q('remove', 4.5),
      q('remove', 4.6),
      user('u3', 'a1', 'try that instead', 20), // u2's turn was rewound
      assistant('a3', 'u3', text('done'), 21, { mid: 'm3', stop: 'end_turn' }),
    ]),
  );
  assert.deepEqual(summary(rewound), [
    ['u1', true, ['u1', 'a1']],
    ['u3', true, ['u3', 'a3']],
  ]);
  const command = await parseLines(v2196(absorbedTurn('/mcp')));
  assert.deepEqual(summary(command), [['u1', true, ['u1', 'a1', 'r1', 'a2']]]);
  const queuedLine = (uuid: string, parent: string, sec: number, prompt: string) => ({
    ...user(uuid, parent, '', sec),
    type: 'attachment',
    message: undefined,
    attachment: { type: 'queued_command', prompt, commandMode: 'prompt' },
  });
  const attached = await parseLines(v2196(absorbedTurn('also this', queuedLine('q1', 'r1', 2.6, 'also this'))));
  assert.deepEqual(summary(attached), [['u1', true, ['u1', 'a1', 'r1', 'q1', 'a2']]]);
  // a queued_command line with the same text after the next response is another prompt, not this one's line
  const later = await parseLines([
    ...v2196(absorbedTurn('yes')),
    user('u2', 'a2', 'again', 10),
    assistant('a3', 'u2', toolUse('t2', 'Bash'), 11, { mid: 'm3', stop: 'tool_use' }),
    user('r2', 'a3', [toolResult('t2', 'ok')], 12),
    queuedLine('q2', 'r2', 12.5, 'yes'),
    assistant('a4', 'q2', text('done again'), 13, { mid: 'm4', stop: 'end_turn' }),
  ]);
  assert.deepEqual(
    summary(later).map((t) => t[2]),
    [
      ['u1', 'a1', 'r1', 'queued:fixture-session:3', 'a2'],
      ['u2', 'a3', 'r2', 'q2', 'a4'],
    ],
  );
  // from 2.1.112 an absorbed prompt always has its queued_command line: the queue generates nothing
  const recent = await parseLines(absorbedTurn('also this'));
  assert.deepEqual(summary(recent), [['u1', true, ['u1', 'a1', 'r1', 'a2']]]);
});

test('a line with the result the turn waits for and text a human typed beside it continues the turn', async () => {
  const r = await parseLines([
    user('u1', null, 'fix the tests', 0),
    assistant('a1', 'u1', toolUse('t1', 'Edit'), 1, { mid: 'm1', stop: 'tool_use' }),
    user('r1', 'a1', [toolResult('t1', 'ok'), text("let's not leave all the tests to the end")], 2),
    assistant('a2', 'r1', text('understood'), 3, { mid: 'm2', stop: 'end_turn' }),
    user('u2', 'a2', [toolResult('t1', 'late copy'), text('and now the docs')], 4), // t1 answered already: a new prompt
    assistant('a3', 'u2', text('on it'), 5, { mid: 'm3', stop: 'end_turn' }),
  ]);
  assert.deepEqual(summary(r), [
    ['u1', true, ['u1', 'a1', 'r1', 'a2']],
    ['u2', true, ['u2', 'a3']],
  ]);
  assert.equal(r.session.turns[0]?.atoms[2]?.author, 'human');
});

test('behind a relay that answers with one message.id, a reply after a notification is a new response, not the ended one continued', async () => {
  const relay = (stop: string) => ({ mid: 'msg_relay_const', stop });
  const r = await parseLines([
    user('u1', null, 'start the build in the background', 0),
    assistant('a1', 'u1', text('started'), 1, relay('end_turn')),
    user('n1', 'a1', '<task-notification><status>completed</status></task-notification>', 30, {
      promptSource: 'system',
    }),
    assistant('a2', 'n1', text('the build passed'), 31, relay('end_turn')),
    user('u2', 'a2', 'thanks', 40),
    assistant('a3', 'u2', text('welcome'), 41, relay('end_turn')),
  ]);
  assert.deepEqual(summary(r), [
    ['u1', true, ['u1', 'a1']],
    [null, true, ['n1', 'a2']],
    ['u2', true, ['u2', 'a3']],
  ]);
});

test('a stop_hook_summary row ends the turn unless a Stop hook blocked it (hookErrors: Claude goes on)', async () => {
  const hooks = (uuid: string, parent: string, sec: number, hookErrors: string[]) =>
    system(uuid, parent, 'stop_hook_summary', sec, { hookCount: 1, hookErrors, preventedContinuation: false });
  const r = await parseLines([
    user('u1', null, 'tidy up', 0),
    assistant('a1', 'u1', thinking('done, nothing else'), 1, { mid: 'm1', stop: null }), // stop_reason null on every line (2.1.39)
    hooks('h1', 'a1', 2, []),
    user('u2', 'h1', 'now the tests', 10),
    assistant('a2', 'u2', text('they pass'), 11, { mid: 'm2', stop: null }),
    hooks('h2', 'a2', 12, ['lint failed']),
    user('f1', 'h2', 'Stop hook feedback:\nlint failed', 12.1, { isMeta: true }),
    assistant('a3', 'f1', text('fixed the lint'), 13, { mid: 'm3', stop: null }),
  ]);
  assert.deepEqual(summary(r), [
    ['u1', true, ['u1', 'a1']],
    ['u2', false, ['u2', 'a2', 'f1', 'a3']],
  ]);
});

test('F14 placement: past the rest of the response and its results in path order; the copy of a line the index keeps; a file with other attachments', async () => {
  // the remove is written between two lines of one response; the results come back in another order
  const parallel = await parseLines(
    v2196([
      user('u1', null, 'look around', 0),
      assistant('a1', 'u1', toolUse('t1', 'Read'), 1, { mid: 'm1', stop: 'tool_use' }),
      q('enqueue', 1.2, 'and the tests'),
      q('remove', 1.4),
      assistant('a2', 'a1', toolUse('t2', 'Grep'), 1.5, { mid: 'm1', stop: 'tool_use' }),
      user('r2', 'a2', [toolResult('t2', 'two')], 2),
      user('r1', 'a1', [toolResult('t1', 'one')], 2.1),
      assistant('a3', 'r2', text('done'), 3, { mid: 'm2', stop: 'end_turn' }),
    ]),
  );
  assert.deepEqual(summary(parallel)[0]?.[2], ['u1', 'a1', 'a2', 'r1', 'r2', 'queued:fixture-session:3', 'a3']);
  // a uuid written twice: the line the index keeps stands for both
  const twice = await parseLines(
    v2196([
      user('u1', null, 'go', 0),
      assistant('a1', 'u1', toolUse('t1', 'Bash'), 1, { mid: 'm1', stop: 'tool_use' }),
      user('r1', 'a1', [toolResult('t1', 'ok')], 2),
      user('r1', 'a1', [toolResult('t1', 'ok, written again')], 2),
      q('enqueue', 2.2, 'then commit'),
      q('remove', 2.4),
      assistant('a2', 'r1', text('done'), 3, { mid: 'm2', stop: 'end_turn' }),
    ]),
  );
  assert.deepEqual(summary(twice)[0]?.[2], ['u1', 'a1', 'r1', 'queued:fixture-session:5', 'a2']);
  // 2.1.96 wrote some attachment types, never queued_command: the prompt is still generated
  const whitelisted = await parseLines(
    v2196([
      user('u1', null, 'go', 0),
      {
        ...user('x1', 'u1', '', 0.5),
        type: 'attachment',
        message: undefined,
        attachment: { type: 'deferred_tools_delta', added: [] },
      },
      assistant('a1', 'x1', toolUse('t1', 'Bash'), 1, { mid: 'm1', stop: 'tool_use' }),
      q('enqueue', 1.5, 'also this'),
      user('r1', 'a1', [toolResult('t1', 'ok')], 2),
      q('remove', 2.5),
      assistant('a2', 'r1', text('done'), 3, { mid: 'm2', stop: 'end_turn' }),
    ]),
  );
  assert.deepEqual(summary(whitelisted)[0]?.[2], ['u1', 'a1', 'r1', 'queued:fixture-session:4', 'a2']);
});

test('F14 across files: a fork copy of the lines before a remove, or a whole copy, still gives its prompt once', async () => {
  const lines = v2196(absorbedTurn('then commit'));
  const original = writeJsonl(lines, 'orig-a.jsonl');
  const copy = writeJsonl(
    [
      ...lines.slice(0, 4),
      user('u2', 'r1', 'next', 100, { version: '2.1.96' }),
      assistant('a3', 'u2', text('ok'), 101, { mid: 'm3', stop: 'end_turn', extra: { version: '2.1.96' } }),
    ],
    'fork-b.jsonl',
  );
  const capture = writeJsonl(lines, 'capture-c.jsonl'); // a whole copy, queue operations included
  for (const files of [[original], [original, copy], [original, capture]]) {
    const { session } = await parseSession(files);
    const uuids = session.turns.flatMap((t) => t.atoms.map((a) => a.uuid));
    assert.deepEqual(
      uuids.filter((u) => u.startsWith('queued:')),
      ['queued:orig-a:3'],
      files.join(' '),
    );
    assert.equal(uuids.indexOf('queued:orig-a:3'), uuids.indexOf('r1') + 1);
  }
});
