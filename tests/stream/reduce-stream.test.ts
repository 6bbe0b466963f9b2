import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { SDKMessage } from '@anthropic-ai/claude-agent-sdk';
import {
  createStreamState,
  reduceStream,
  streamSession,
  type StreamMessage,
  type StreamState,
} from '../../src/stream/reduce-stream.ts';
import { sAssistant, sResult, sSystem, sUser } from '../helpers/stream.ts';
import { text, toolResult, toolUse } from '../helpers/transcript.ts';

function run(messages: Array<Record<string, unknown>>, start?: StreamState): StreamState {
  let state = start ?? createStreamState();
  messages.forEach((m, i) => {
    state = reduceStream(state, m as StreamMessage, 1000 * (i + 1));
  });
  return state;
}
const shape = (s: StreamState): Array<[string | null, boolean, string[]]> =>
  streamSession(s).turns.map((t) => [t.trigger?.uuid ?? null, t.ended, t.atoms.map((a) => `${a.type}:${a.uuid}`)]);

test('a result ends the turn; a user message before it is absorbed, after it opens a turn', () => {
  const s = run([
    sUser('p1', 'first', { isReplay: true }),
    sAssistant('a1', 'm1', toolUse('t1', 'Read')),
    sUser('r1', [toolResult('t1', 'x')]),
    sUser('p2', 'also this'),
    sAssistant('a2', 'm2', text('done')),
    sResult('res1'),
    sUser('p3', 'second'),
    sAssistant('a3', 'm3', text('ok')),
  ]);
  assert.deepEqual(shape(s), [
    ['p1', true, ['user:p1', 'assistant:a1', 'user:r1', 'user:p2', 'assistant:a2', 'result:res1']],
    ['p3', false, ['user:p3', 'assistant:a3']],
  ]);
  const atoms = streamSession(s).turns[0]?.atoms ?? [];
  assert.deepEqual(
    atoms.map((a) => a.author ?? null),
    ['sdk', null, null, 'sdk', null, null],
  );
  assert.deepEqual(atoms[5]?.result, {
    subtype: 'success',
    num_turns: 1,
    stop_reason: 'end_turn',
    usage: { input_tokens: 10, output_tokens: 20 },
    total_cost_usd: 0.01,
    duration_ms: 1200,
    is_error: false,
  });
});

test('the reducer never mutates: an earlier state and its snapshot stay as they were', () => {
  const before = run([sUser('p1', 'hi'), sAssistant('a1', 'm1', text('hello'))]);
  const snapshot = JSON.stringify(streamSession(before));
  const after = run([sResult('res'), sUser('p2', 'again')], before);
  assert.equal(JSON.stringify(streamSession(before)), snapshot);
  assert.equal(streamSession(after).turns.length, 2);
  assert.equal(before.count, 2);
});

test('subagent frames go to the lane of their tool_use, not into the turns', () => {
  const s = run([
    sUser('p1', 'delegate'),
    sAssistant('a1', 'm1', toolUse('task-1', 'Task')),
    sUser('sp', 'Explore the repo', { parent_tool_use_id: 'task-1' }),
    sAssistant('sa', 'm9', toolUse('t9', 'Glob'), { parent_tool_use_id: 'task-1' }),
    sUser('sr', [toolResult('t9', 'a.ts')], { parent_tool_use_id: 'task-1' }),
    sUser('r1', [toolResult('task-1', 'found a.ts')]),
    sResult('res'),
  ]);
  assert.deepEqual(shape(s), [['p1', true, ['user:p1', 'assistant:a1', 'user:r1', 'result:res']]]);
  assert.deepEqual(
    Object.entries(streamSession(s).subagents ?? {}).map(([k, v]) => [k, v.map((a) => a.uuid)]),
    [['task-1', ['sp', 'sa', 'sr']]],
  );
});

test('init sets dir and identity; compact_boundary is an atom; stream_event and unknown types are only counted', () => {
  const s = run([
    sSystem('init', { cwd: '/work/x', uuid: 'i' }),
    { type: 'stream_event', uuid: 'e1', session_id: 'stream-session', event: { type: 'message_start' } },
    sUser('p1', '/compact'),
    sSystem('compact_boundary', { uuid: 'b', compact_metadata: { trigger: 'manual', pre_tokens: 900 } }),
    sUser('s1', 'This session is being continued…', { isSynthetic: true }),
    { type: 'brand_new_type', uuid: 'z', session_id: 'stream-session' },
    sSystem('hook_started', { uuid: 'h' }),
    sResult('res', { num_turns: 0 }),
  ]);
  const session = streamSession(s);
  assert.deepEqual([session.dir, session.rompUuid], ['/work/x', 'stream-session']);
  assert.deepEqual(shape(s), [['p1', true, ['user:p1', 'system:b', 'user:s1', 'result:res']]]);
  assert.deepEqual(session.turns[0]?.atoms[1]?.compact_metadata, { trigger: 'manual', pre_tokens: 900 });
  assert.equal(session.turns[0]?.atoms[2]?.author, 'system');
  assert.deepEqual({ ...s.ignored }, { stream_event: 1, brand_new_type: 1, 'system:hook_started': 1 });
});

test('supersedes and retracted_message_uuids remove the atoms they name', () => {
  const s = run([
    sUser('p1', 'go'),
    sAssistant('a1', 'm1', text('first try')),
    sAssistant('a2', 'm2', text('second try'), { supersedes: ['a1'] }),
    sSystem('model_refusal_fallback', { uuid: 'f', retracted_message_uuids: ['a2'] }),
    sAssistant('a3', 'm3', text('final')),
    sResult('res'),
  ]);
  assert.deepEqual(shape(s), [['p1', true, ['user:p1', 'assistant:a3', 'result:res']]]);
});

test('session_state_changed idle spans become idle atoms [t, end]; t comes from timestamps when present', () => {
  const s = run([
    sUser('p1', 'go', { timestamp: '2026-03-01T10:00:00.000Z' }),
    sAssistant('a1', 'm1', text('ok')),
    sResult('res'),
    sSystem('session_state_changed', { uuid: '1', state: 'idle' }),
    sSystem('session_state_changed', { uuid: '2', state: 'running' }),
    sUser('p2', 'next'),
  ]);
  const turns = streamSession(s).turns;
  assert.equal(turns[0]?.t, Date.parse('2026-03-01T10:00:00.000Z'));
  const idle = turns[0]?.atoms.at(-1);
  assert.deepEqual([idle?.type, idle?.t, idle?.end], ['idle', 4000, 5000]);
  assert.equal(turns[1]?.trigger?.uuid, 'p2');
});

test('frames without uuid get a generated one from the session id and their index', () => {
  const s = run([{ type: 'user', session_id: 'S', message: { role: 'user', content: 'hi' } }]);
  assert.equal(streamSession(s).turns[0]?.atoms[0]?.uuid, 'S:0');
});

test('the official SDKMessage type is accepted as it is (a compile-time check)', () => {
  const accepts = (m: SDKMessage): StreamState => reduceStream(undefined, m, 0);
  assert.equal(typeof accepts, 'function');
});

test('parent_tool_use_id "__proto__" or "constructor" is a subagent lane like any other; type "constructor" is counted', () => {
  const s = run([
    sAssistant('s1', 'm1', text('one'), { parent_tool_use_id: '__proto__' }),
    sAssistant('s2', 'm2', text('two'), { parent_tool_use_id: 'constructor' }),
    { type: 'constructor', session_id: 'x' },
    { type: 'toString', session_id: 'x' },
    { type: 'toString', session_id: 'x' },
  ]);
  const lanes = streamSession(s).subagents ?? {};
  assert.deepEqual(
    Object.entries(lanes).map(([k, v]) => [k, v.map((a) => a.uuid)]),
    [
      ['__proto__', ['s1']],
      ['constructor', ['s2']],
    ],
  );
  assert.deepEqual(Object.entries(s.ignored), [
    ['constructor', 1],
    ['toString', 2],
  ]);
  assert.equal(({} as Record<string, unknown>)['head'], undefined);
});
