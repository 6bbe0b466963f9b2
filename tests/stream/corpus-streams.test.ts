/**
 * Replays the real stream-json recordings in ../shared/corpus/streams (read-only). Lines starting with
 * `>>> ` are the recorder's own stdin echo, not output, and are skipped; `.json` files are single
 * pretty-printed messages.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { RawRecord } from '../../src/read/parse-line.ts';
import { decodeStream } from '../../src/stream/decode-stream.ts';
import { fromStream, type StreamSnapshot } from '../../src/stream/from-stream.ts';

const ROOT = resolve(fileURLToPath(import.meta.url), '../../../../../shared/corpus/streams');
const present = existsSync(ROOT);

async function replay(relative: string): Promise<{ last: StreamSnapshot; messages: RawRecord[] }> {
  const text = readFileSync(join(ROOT, relative), 'utf8');
  const messages: RawRecord[] = [];
  if (relative.endsWith('.json')) messages.push(JSON.parse(text) as RawRecord);
  else
    for await (const m of decodeStream([
      text
        .split('\n')
        .filter((l) => !l.startsWith('>>> '))
        .join('\n'),
    ]))
      messages.push(m);
  let clock = 0;
  let last: StreamSnapshot | undefined;
  for await (const snapshot of fromStream(messages, { now: () => ++clock })) last = snapshot;
  return { last: last as StreamSnapshot, messages };
}

// [file, main-lane atoms per turn (assistant, user, compact_boundary, result), subagent lanes: frames]
// counted independently from the raw lines: every `result` closes a turn
const expected: Array<[string, number[], Record<string, number>]> = [
  ['jonasthim__styr/internal/harness/claude/testdata/02_tool_read.excerpt.jsonl', [6], {}],
  ['jonasthim__styr/internal/harness/claude/testdata/04_multi_turn.excerpt.jsonl', [3, 3], {}],
  ['jonasthim__styr/internal/harness/claude/testdata/07_slash_compact.jsonl', [2], {}],
  ['matt-grain__Claude-Orchestrator/scripts/task_tool_output.jsonl', [5], { toolu_01EMBD2Ez8pt8LWj5ovow1mU: 71 }],
  ['alfredjeanlab__claudeless/crates/cli/tests/fixtures/cli/v2.1.12/stream-json/output.jsonl', [2], {}],
  ['charlieyou__claude-agent-sdk-gleam/test/fixtures/golden/basic_query.ndjson', [2], {}],
  ['charlieyou__claude-agent-sdk-gleam/test/fixtures/result_success.json', [1], {}],
];

test(
  'every recorded stream: one turn per result, each ended, atoms per turn, subagent lanes',
  { skip: !present },
  async () => {
    for (const [file, atoms, lanes] of expected) {
      const { last, messages } = await replay(file);
      const session = last.session;
      assert.equal(session.turns.length, messages.filter((m) => m['type'] === 'result').length, file);
      assert.deepEqual(
        session.turns.map((t) => t.atoms.length),
        atoms,
        file,
      );
      assert.ok(
        session.turns.every((t) => t.ended),
        `${file}: a turn not ended`,
      );
      assert.deepEqual(
        Object.fromEntries(Object.entries(session.subagents ?? {}).map(([k, v]) => [k, v.length])),
        lanes,
        file,
      );
    }
  },
);

test(
  'the multi-turn recording: replayed prompts open the turns, partials are ignored, not atoms',
  { skip: !present },
  async () => {
    const { last } = await replay('jonasthim__styr/internal/harness/claude/testdata/04_multi_turn.excerpt.jsonl');
    const turns = last.session.turns;
    assert.deepEqual(
      turns.map((t) => [t.atoms[0]?.type, t.atoms[0]?.author, t.trigger?.uuid === t.atoms[0]?.uuid]),
      [
        ['user', 'sdk', true],
        ['user', 'sdk', true],
      ],
    );
    assert.equal(last.state.ignored['stream_event'], 12);
  },
);

test(
  'the subagent recording: the Task tool_use has its lane, and the main turn holds only the parent frames',
  { skip: !present },
  async () => {
    const { last } = await replay('matt-grain__Claude-Orchestrator/scripts/task_tool_output.jsonl');
    const turn = last.session.turns[0];
    assert.deepEqual(
      turn?.atoms.map((a) => a.type),
      ['assistant', 'assistant', 'user', 'assistant', 'result'],
    );
    assert.equal(turn?.trigger, null);
    const task = turn?.atoms[1]?.message?.content.find((b) => b.type === 'tool_use') as { id?: string } | undefined;
    assert.equal(task?.id, 'toolu_01EMBD2Ez8pt8LWj5ovow1mU');
  },
);
