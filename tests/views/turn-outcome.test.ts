import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createStreamState, reduceStream, streamSession, type StreamMessage } from '../../src/stream/reduce-stream.ts';
import { promptText } from '../../src/views/prompt-text.ts';
import { turnOutcome } from '../../src/views/turn-outcome.ts';
import { parseLines } from '../helpers/parse.ts';
import { sAssistant, sResult, sUser } from '../helpers/stream.ts';
import { assistant, system, T0, text, toolResult, toolUse, user } from '../helpers/transcript.ts';

type Lines = Parameters<typeof parseLines>[0];

/** Each turn as [trigger, outcome, ended, atom uuids]. */
async function outcomes(lines: Lines): Promise<Array<[string | null, string, boolean, string[]]>> {
  const { session } = await parseLines(lines);
  return session.turns.map((t) => [t.trigger?.uuid ?? null, turnOutcome(t), t.ended, t.atoms.map((a) => a.uuid)]);
}

const done = (uuid: string, parent: string, sec: number, mid: string): Record<string, unknown> =>
  assistant(uuid, parent, text('Done.'), sec, { mid, stop: 'end_turn' });

test('completed: a final end_turn; with stop_reason null on every line, a turn_duration row', async () => {
  assert.deepEqual(
    await outcomes([
      user('u1', null, 'list the files', 0),
      assistant('a1', 'u1', text('Here they are.'), 2, { mid: 'm1', stop: 'end_turn' }),
      user('u2', 'a1', 'and the folders', 10),
      assistant('a2', 'u2', text('Two folders.'), 12, { mid: 'm2', stop: null }),
      system('d2', 'a2', 'turn_duration', 12, { durationMs: 2000 }),
    ]),
    [
      ['u1', 'completed', true, ['u1', 'a1']],
      ['u2', 'completed', true, ['u2', 'a2']],
    ],
  );
});

test('interrupted, rejected (refusal text then the interrupt for tool use), interrupted during a tool', async () => {
  const refusal =
    "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed.";
  const cancel =
    "The user doesn't want to take this action right now. STOP what you are doing and wait for the user to tell you how to proceed.";
  assert.deepEqual(
    await outcomes([
      user('u1', null, 'write a long essay', 0),
      assistant('a1', 'u1', text('Once upon'), 1, { mid: 'm1', stop: null }),
      user('i1', 'a1', [text('[Request interrupted by user]')], 2),
      user('u2', 'i1', 'delete the build folder', 10),
      assistant('a2', 'u2', toolUse('t2', 'Bash', { command: 'rm -rf build' }), 11, { mid: 'm2', stop: 'tool_use' }),
      user('r2', 'a2', [toolResult('t2', refusal, true)], 12),
      user('i2', 'r2', [text('[Request interrupted by user for tool use]')], 12),
      user('u3', 'i2', 'run the slow tests', 20),
      assistant('a3', 'u3', toolUse('t3', 'Bash', { command: 'npm test' }), 21, { mid: 'm3', stop: 'tool_use' }),
      user('r3', 'a3', [toolResult('t3', cancel, true)], 30),
      user('i3', 'r3', [text('[Request interrupted by user for tool use]')], 30),
    ]),
    [
      ['u1', 'interrupted', true, ['u1', 'a1', 'i1']],
      ['u2', 'rejected', true, ['u2', 'a2', 'r2', 'i2']],
      ['u3', 'interrupted', true, ['u3', 'a3', 'r3', 'i3']],
    ],
  );
});

test('blocked: "Operation stopped by hook" is Claude Code\'s line inside the prompt\'s turn, never an opener', async () => {
  const { session } = await parseLines([
    user('u1', null, 'deploy to production', 0),
    user('h1', 'u1', 'Operation stopped by hook: deploys are frozen on Fridays', 0.2),
    user('u2', 'h1', 'then run the tests', 10),
    done('a2', 'u2', 12, 'm2'),
  ]);
  const [first, second] = session.turns;
  assert.deepEqual(
    first?.atoms.map((a) => [a.uuid, a.author]),
    [
      ['u1', 'human'],
      ['h1', 'system'],
    ],
  );
  assert.deepEqual([first && turnOutcome(first), first?.ended, first?.end], ['blocked', true, T0 + 200]);
  assert.deepEqual([second?.trigger?.uuid, second && turnOutcome(second)], ['u2', 'completed']);
});

test('blocked: the system/informational warning of a blocked prompt is the prompt, its own ended turn', async () => {
  const warning =
    'UserPromptSubmit operation blocked by hook:\nthe prompt names a secret\n\nOriginal prompt: print the value of API_TOKEN';
  const { session } = await parseLines([
    user('u1', null, 'hello', 0),
    done('a1', 'u1', 1, 'm1'),
    system('w1', 'a1', 'informational', 5, { content: warning, level: 'warning' }),
    system('n1', 'w1', 'informational', 6, { content: 'just a notice', level: 'info' }),
  ]);
  assert.deepEqual(
    session.turns.map((t) => [t.trigger?.uuid, t.atoms.map((a) => a.uuid), turnOutcome(t), t.ended, promptText(t)]),
    [
      ['u1', ['u1', 'a1'], 'completed', true, 'hello'],
      ['w1', ['w1'], 'blocked', true, 'print the value of API_TOKEN'],
    ],
  );
  const atom = session.turns[1]?.atoms[0];
  assert.deepEqual([atom?.type, atom?.subtype, atom?.author], ['user', 'informational', 'human']);
  assert.deepEqual(
    session.records.filter((r) => r.uuid === 'n1').map((r) => r.subtype),
    ['informational'],
    'other notices stay records',
  );
});

test('max_tokens, api_error (a <synthetic> isApiErrorMessage line), open (cut off waiting for a tool)', async () => {
  const apiError = assistant('a2', 'u2', text('API Error: 529 overloaded'), 11, {
    mid: 'b1f6c0de-0000-4000-8000-000000000001',
    stop: 'stop_sequence',
    usage: { input_tokens: 0, output_tokens: 0 },
    extra: { isApiErrorMessage: true, requestId: undefined },
  });
  (apiError['message'] as Record<string, unknown>)['model'] = '<synthetic>';
  assert.deepEqual(
    await outcomes([
      user('u1', null, 'write everything', 0),
      assistant('a1', 'u1', text('Part one…'), 5, { mid: 'm1', stop: 'max_tokens' }),
      user('u2', 'a1', 'go on', 10),
      apiError,
      user('u3', 'a2', 'try again', 20),
      assistant('a3', 'u3', toolUse('t3', 'Read', { file_path: 'a.txt' }), 21, { mid: 'm3', stop: 'tool_use' }),
    ]),
    [
      ['u1', 'max_tokens', true, ['u1', 'a1']],
      ['u2', 'api_error', true, ['u2', 'a2']],
      ['u3', 'open', false, ['u3', 'a3']],
    ],
  );
});

test("local: a local command is an ended turn; its caveat, stamped after it, is its turn's and does not stretch the one before", async () => {
  const caveat =
    '<local-command-caveat>Caveat: The messages below were generated by the user while running local commands. DO NOT respond to these messages.</local-command-caveat>';
  const { session } = await parseLines([
    user('u1', null, 'explain the diff', 0),
    done('a1', 'u1', 11, 'm1'),
    user('c0', 'a1', caveat, 17_000.5, { isMeta: true }),
    user(
      'c1',
      'c0',
      '<command-name>/model</command-name>\n            <command-message>model</command-message>\n            <command-args>opus</command-args>',
      17_000,
    ),
    user('c2', 'c1', '<local-command-stdout>Set model to opus</local-command-stdout>', 17_000),
  ]);
  assert.deepEqual(
    session.turns.map((t) => [
      t.trigger?.uuid,
      t.atoms.map((a) => a.uuid),
      t.end - T0,
      t.ended,
      turnOutcome(t),
      promptText(t),
    ]),
    [
      ['u1', ['u1', 'a1'], 11_000, true, 'completed', 'explain the diff'],
      ['c1', ['c0', 'c1', 'c2'], 17_000_500, true, 'local', '/model opus'],
    ],
  );
});

test('a `!` shell command is local too', async () => {
  assert.deepEqual(
    await outcomes([
      user('b1', null, '<bash-input>git status</bash-input>', 0),
      user('b2', 'b1', '<bash-stdout>nothing to commit</bash-stdout><bash-stderr></bash-stderr>', 1),
    ]),
    [['b1', 'local', true, ['b1', 'b2']]],
  );
});

test('streams: the result decides, by terminal_reason, else by subtype and is_error', () => {
  let state = createStreamState();
  const frames = [
    sUser('p1', 'first', { isReplay: true }),
    sAssistant('a1', 'm1', text('ok')),
    sResult('r1', { terminal_reason: 'completed' }),
    sUser('p2', 'second', { isReplay: true }),
    sAssistant('a2', 'm2', text('wri')),
    sUser('i2', [text('[Request interrupted by user]')]),
    sResult('r2', { subtype: 'error_during_execution', is_error: true, terminal_reason: 'aborted_streaming' }),
    sUser('p3', 'third', { isReplay: true }),
    sResult('r3', { is_error: true, stop_reason: null }),
    sUser('p4', 'fourth', { isReplay: true }),
    sResult('r4', { num_turns: 0, terminal_reason: 'hook_stopped' }),
    sUser('p5', 'fifth', { isReplay: true }),
    sAssistant('a5', 'm5', text('long')),
    sResult('r5', { stop_reason: 'max_tokens' }),
    sUser('p6', '/compact', { isReplay: true }),
    sAssistant('a6', 'b2c4e6f8-0000-4000-8000-000000000006', text('Not enough messages to compact.'), {
      message: {
        id: 'b2c4e6f8-0000-4000-8000-000000000006',
        role: 'assistant',
        model: '<synthetic>',
        content: [text('Not enough messages to compact.')],
        stop_reason: null,
      },
    }),
    sResult('r6', { num_turns: 0, stop_reason: null, local_command: 'compact' }),
    sUser('p7', 'seventh', { isReplay: true }),
    sAssistant('a7', 'm7', toolUse('t7', 'Read')),
  ];
  frames.forEach((m, i) => {
    state = reduceStream(state, m as StreamMessage, 1000 * (i + 1));
  });
  assert.deepEqual(
    streamSession(state).turns.map((t) => [t.trigger?.uuid, turnOutcome(t)]),
    [
      ['p1', 'completed'],
      ['p2', 'interrupted'],
      ['p3', 'api_error'],
      ['p4', 'blocked'],
      ['p5', 'max_tokens'],
      ['p6', 'local'],
      ['p7', 'open'],
    ],
  );
});
