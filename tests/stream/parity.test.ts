/**
 * One conversation written by hand twice, as a transcript file and as a stream, with the same uuids:
 * both adapters must give the same turns and atoms. Ignored, as the seed lists them file-only or
 * stream-only: `fsid`, `parentUuid`, `promptSource`, the `result` atoms, and the message fields the
 * stream does not finalise (`stop_reason`, `usage`).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Atom, Session } from '../../src/model/types.ts';
import type { StreamMessage } from '../../src/stream/reduce-stream.ts';
import { fromStream, type StreamSnapshot } from '../../src/stream/from-stream.ts';
import { parseSession } from '../../src/session/parse-session.ts';
import { sAssistant, sResult, sSystem, sUser } from '../helpers/stream.ts';
import { assistant, at, compactBoundary, text, toolResult, toolUse, user, writeJsonl } from '../helpers/transcript.ts';

const sdk = { promptSource: 'sdk', entrypoint: 'sdk-ts' };
const file = [
  user('p1', null, 'Refactor the parser', 0, sdk),
  assistant('a1', 'p1', text('Reading it first.'), 1, { mid: 'm1', stop: 'tool_use' }),
  assistant('a2', 'a1', toolUse('t1', 'Read', { file_path: 'parser.ts' }), 2, { mid: 'm1', stop: 'tool_use' }),
  assistant('a3', 'a2', toolUse('t2', 'Grep', { pattern: 'parse' }), 3, { mid: 'm1', stop: 'tool_use' }),
  user('r1', 'a2', [toolResult('t1', 'export function parse() {}')], 4),
  user('r2', 'a3', [toolResult('t2', 'parser.ts:1')], 5),
  {
    parentUuid: 'r2',
    isSidechain: false,
    type: 'attachment',
    uuid: 'q1',
    timestamp: at(6),
    sessionId: 'fixture-session',
    entrypoint: 'sdk-ts',
    attachment: { type: 'queued_command', prompt: 'also keep the old name', commandMode: 'prompt' },
  },
  assistant('a4', 'q1', text('Refactored; the old name stays as an alias.'), 7, { mid: 'm2', stop: 'end_turn' }),
  user('p2', 'a4', '/compact', 20, sdk),
  compactBoundary('b', 'p2', 21, { trigger: 'manual', preTokens: 5000 }),
  user('s', 'b', 'This session is being continued from a previous conversation.', 22, { isCompactSummary: true }),
  user('p3', 's', 'Run the tests', 30, sdk),
  assistant('a5', 'p3', toolUse('t3', 'Bash', { command: 'npm test' }), 31, { mid: 'm3', stop: 'tool_use' }),
  user('r3', 'a5', [toolResult('t3', 'ok')], 32),
  assistant('a6', 'r3', text('All green.'), 33, { mid: 'm4', stop: 'end_turn' }),
];

const stamp = (sec: number) => ({ timestamp: at(sec) });
const stream: Array<Record<string, unknown>> = [
  sSystem('init', { uuid: 'init', cwd: '/work/demo' }),
  sUser('p1', 'Refactor the parser', { isReplay: true, ...stamp(0) }),
  sAssistant('a1', 'm1', text('Reading it first.'), stamp(1)),
  sAssistant('a2', 'm1', toolUse('t1', 'Read', { file_path: 'parser.ts' }), stamp(2)),
  sAssistant('a3', 'm1', toolUse('t2', 'Grep', { pattern: 'parse' }), stamp(3)),
  sUser('r1', [toolResult('t1', 'export function parse() {}')], stamp(4)),
  sUser('r2', [toolResult('t2', 'parser.ts:1')], stamp(5)),
  sUser('q1', 'also keep the old name', { isReplay: true, ...stamp(6) }),
  sAssistant('a4', 'm2', text('Refactored; the old name stays as an alias.'), stamp(7)),
  sResult('res1', stamp(8)),
  sUser('p2', '/compact', { isReplay: true, ...stamp(20) }),
  sSystem('compact_boundary', { uuid: 'b', compact_metadata: { trigger: 'manual', pre_tokens: 5000 }, ...stamp(21) }),
  sUser('s', 'This session is being continued from a previous conversation.', { isSynthetic: true, ...stamp(22) }),
  sResult('res2', { num_turns: 0, ...stamp(23) }),
  sUser('p3', 'Run the tests', { isReplay: true, ...stamp(30) }),
  sAssistant('a5', 'm3', toolUse('t3', 'Bash', { command: 'npm test' }), stamp(31)),
  sUser('r3', [toolResult('t3', 'ok')], stamp(32)),
  sAssistant('a6', 'm4', text('All green.'), stamp(33)),
  sResult('res3', stamp(34)),
];

const comparable = (session: Session) =>
  session.turns.map((turn) => ({
    id: turn.id,
    trigger: turn.trigger,
    t: turn.t,
    ended: turn.ended,
    atoms: turn.atoms
      .filter((a) => a.type !== 'result')
      .map((a: Atom) => ({
        type: a.type,
        subtype: a.subtype,
        uuid: a.uuid,
        t: a.t,
        author: a.author,
        content: a.message?.content,
        compact: a.compact_metadata,
      })),
  }));

test('the file adapter and the stream adapter give the same turns and atoms for one conversation', async () => {
  const fromFile = (await parseSession([writeJsonl(file)], { rompUuid: 'R' })).session;
  let last: StreamSnapshot | undefined;
  for await (const snapshot of fromStream(stream as StreamMessage[], { rompUuid: 'R', now: () => 0 })) last = snapshot;
  const fromStreamSession = (last as StreamSnapshot).session;
  assert.deepEqual(comparable(fromStreamSession), comparable(fromFile));
  assert.deepEqual(
    comparable(fromFile).map((t) => [
      t.trigger?.uuid,
      t.ended,
      t.atoms.map((a) => `${a.uuid}:${String(a.author ?? '-')}`),
    ]),
    [
      ['p1', true, ['p1:sdk', 'a1:-', 'a2:-', 'a3:-', 'r1:-', 'r2:-', 'q1:sdk', 'a4:-']],
      ['p2', true, ['p2:sdk', 'b:-', 's:system']],
      ['p3', true, ['p3:sdk', 'a5:-', 'r3:-', 'a6:-']],
    ],
  );
  assert.equal(fromStreamSession.dir, fromFile.dir);
});
