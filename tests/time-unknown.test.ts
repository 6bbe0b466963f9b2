import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cli } from '../src/cli/cli.ts';
import { parseSession } from '../src/session/parse-session.ts';
import { toolCalls } from '../src/views/tool-calls.ts';
import { isKnownTime, UNKNOWN_TIME } from '../src/model/time.ts';
import { assistant, toolResult, toolUse, user, writeJsonl } from './helpers/transcript.ts';

/** A turn with a tool call whose lines carry no timestamp at all. */
const untimed = (): string =>
  writeJsonl(
    [
      user('u1', null, 'look', 0),
      assistant('a1', 'u1', toolUse('t1', 'Read'), 1, { mid: 'm1', stop: 'tool_use' }),
      user('r1', 'a1', [toolResult('t1', 'ok')], 2),
    ].map((l) => {
      const { timestamp: _timestamp, ...rest } = l;
      return rest;
    }),
  );

async function run(argv: string[]): Promise<string> {
  let out = '';
  await cli(argv, { stdout: { write: (s: string) => (out += s) }, stderr: { write: () => {} } });
  return out;
}

test('no readable timestamp: times are UNKNOWN_TIME, each line has BAD_TIMESTAMP; durations null', async () => {
  const { session, diagnostics } = await parseSession([untimed()]);
  assert.deepEqual(
    [session.turns[0]?.t, session.turns[0]?.atoms.map((a) => isKnownTime(a.t))],
    [UNKNOWN_TIME, [false, false, false]],
  );
  assert.deepEqual(
    diagnostics.map((d) => [d.code, d.line]),
    [
      ['BAD_TIMESTAMP', 1],
      ['BAD_TIMESTAMP', 2],
      ['BAD_TIMESTAMP', 3],
    ],
  );
  assert.deepEqual(
    toolCalls(session).map((c) => [c.name, c.duration_ms]),
    [['Read', null]],
  );
});

test('no readable timestamp: the outline, segments and tools say "time unknown", not 1970-01-01 or 0 ms', async () => {
  const file = untimed();
  assert.match(await run(['show', file]), /^#1 {2}time unknown {2}human/m);
  assert.match(await run(['turns', file]), /^#1 {2}time unknown {2}human/m);
  assert.match(await run(['segments', file]), /^time unknown {2}turn .* time unknown$/m);
  assert.equal(await run(['tools', file]), '#1  Read  time unknown  t1\n');
  // the zone is said once above the times, as show says it in its header
  for (const view of ['turns', 'segments'])
    assert.equal((await run([view, file, '--timezone', 'Asia/Tokyo'])).split('\n')[0], 'times in Asia/Tokyo');
  for (const view of ['show', 'turns', 'segments', 'tools'])
    assert.doesNotMatch(await run([view, file]), /1970|\b0 ms|NaN/);
});
