import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { runCli } from './helpers/run-cli.ts';
import type { Session } from '../src/model/types.ts';
import { assistant, text, user, writeJsonl } from './helpers/transcript.ts';

/** One prompt and its reply, every line with `sessionId` `sid`; uuids prefixed by `p`. */
function exchange(p: string, sid: string, parent: string | null, sec: number): Array<Record<string, unknown>> {
  return [
    user(`${p}u`, parent, `prompt ${p}`, sec, { sessionId: sid }),
    assistant(`${p}a`, `${p}u`, text(`reply ${p}`), sec + 1, {
      mid: `${p}m`,
      stop: 'end_turn',
      extra: { sessionId: sid },
    }),
  ];
}

test('every command of one session refuses files of two unrelated sessions with one line naming them', async () => {
  const a = writeJsonl(exchange('a', 'sess-a', null, 0), 'sess-a.jsonl');
  const b = writeJsonl(exchange('b', 'sess-b', null, 60), 'sess-b.jsonl');
  // resume-check reported the second only, watch followed it only, cache summed both
  for (const command of ['show', 'json', 'resume-check', 'cache', 'watch']) {
    const { code, out, err } = await runCli([command, a, b, '--romp-home', join(dirname(a), 'home')]);
    assert.equal(code, 2);
    assert.equal(out, '');
    assert.equal(err, `romp: these files hold 2 unrelated sessions, give the files of one: ${a}, ${b}\n`);
  }
});

test('a resume pair (history copied into the new file, uuids kept) and a subagent file are one session', async () => {
  // claude --resume: the new file starts with copies of the old file's lines under its own sessionId
  const old = writeJsonl(exchange('1', 'sess-old', null, 0), 'sess-old.jsonl');
  const resumed = join(dirname(old), 'sess-new.jsonl');
  const copies = exchange('1', 'sess-new', null, 0);
  writeFileSync(
    resumed,
    [...copies, ...exchange('2', 'sess-new', '1a', 120)].map((l) => JSON.stringify(l)).join('\n') + '\n',
  );
  // a subagent's file shares no uuid, only its parent's sessionId
  const agent = join(dirname(old), 'agent-x.jsonl');
  writeFileSync(
    agent,
    exchange('x', 'sess-new', null, 130)
      .map((l) => JSON.stringify({ ...l, isSidechain: true, agentId: 'x' }))
      .join('\n') + '\n',
  );
  const { code, out, err } = await runCli(['json', old, resumed, agent]);
  assert.equal(err, '');
  assert.equal(code, 0);
  const session = JSON.parse(out) as Session;
  assert.deepEqual(
    session.turns.map((t) => t.trigger?.uuid),
    ['1u', '2u'],
  );
  for (const command of ['resume-check', 'cache']) {
    const r = await runCli([command, old, resumed, '--json', '--romp-home', join(dirname(old), 'home')]);
    assert.deepEqual([r.code, r.err], [0, ''], command);
  }
  // with an unrelated file added, the two groups are named
  const other = writeJsonl(exchange('b', 'sess-b', null, 60), 'sess-b.jsonl');
  const refused = await runCli(['show', old, resumed, agent, other]);
  assert.equal(refused.code, 2);
  assert.equal(
    refused.err,
    `romp: these files hold 2 unrelated sessions, give the files of one: ${old} + ${resumed} + ${agent}, ${other}\n`,
  );
});
