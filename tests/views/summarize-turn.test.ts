import assert from 'node:assert/strict';
import { test } from 'node:test';
import { summarizeTurn } from '../../src/views/summarize-turn.ts';
import { parseLines } from '../helpers/parse.ts';
import { assistant, text, toolResult, toolUse, user } from '../helpers/transcript.ts';

test('summarizeTurn: counts, tools by name (any name, even __proto__), deduplicated usage and cost', async () => {
  const usage = { input_tokens: 100, output_tokens: 50, cache_creation_input_tokens: 0, cache_read_input_tokens: 1000 };
  const { session } = await parseLines([
    user('u1', null, 'look around', 0),
    assistant('a1', 'u1', text('Looking.'), 1, { mid: 'm1', stop: 'tool_use', usage: { ...usage, output_tokens: 2 } }),
    assistant('a2', 'a1', toolUse('t1', '__proto__'), 1, { mid: 'm1', stop: 'tool_use', usage }),
    assistant('a3', 'a2', toolUse('t2', 'Task', { prompt: 'search' }), 1, { mid: 'm1', stop: 'tool_use', usage }),
    user('r1', 'a2', [toolResult('t1', 'x')], 2),
    user('r2', 'a3', [toolResult('t2', 'y')], 4),
    assistant('a4', 'r2', text('Found it.'), 6, {
      mid: 'm2',
      stop: 'end_turn',
      usage: { ...usage, input_tokens: 10, output_tokens: 20 },
    }),
  ]);
  const summary = summarizeTurn(session.turns[0]!, 1);
  const { tools, ...rest } = summary;
  assert.equal(JSON.stringify(tools), '{"__proto__":1,"Task":1}');
  assert.equal(Object.getPrototypeOf(tools), null);
  assert.deepEqual(JSON.parse(JSON.stringify(rest)), {
    id: session.turns[0]!.id,
    index: 1,
    trigger: 'u1',
    author: 'human',
    prompt: 'look around',
    outcome: 'completed',
    t: Date.parse('2026-03-01T10:00:00.000Z'),
    end: Date.parse('2026-03-01T10:00:06.000Z'),
    duration_ms: 6000,
    ended: true,
    atoms: 7,
    // m1 once (its largest snapshot: 100 + 50 + 1000), m2 once
    usage: {
      input_tokens: 110,
      output_tokens: 70,
      cache_creation_input_tokens: 0,
      cache_creation_5m: 0,
      cache_creation_1h: 0,
      cache_read_input_tokens: 2000,
      responses: 2,
      unpriced: 0,
      lowerBound: false,
    },
    // claude-sonnet-4-5: $3 in, $15 out, $0.30 cache read per MTok
    cost_usd: (110 * 3 + 70 * 15 + 2000 * 0.3) / 1e6,
    subagents: 1,
  });
});
