/**
 * The stream adapter's part of `npm run bench`: a 100k-message stream replayed through `reduceStream`,
 * messages per second, and the per-message time of the first 10 % against the last 10 % (the reducer
 * must not slow down as the session grows).
 */
import { createStreamState, reduceStream, streamSession, type StreamMessage } from '../src/stream/reduce-stream.ts';

/** Builds `count` stream messages: turns of a prompt, tool calls with results, a reply and a result. */
export function generateStream(count: number): StreamMessage[] {
  const out: Array<Record<string, unknown>> = [];
  const session_id = 'bench-stream';
  let n = 0;
  const id = (): string => `00000000-0000-4000-9000-${(n++).toString(16).padStart(12, '0')}`;
  for (let turn = 0; out.length < count; turn++) {
    out.push({
      type: 'user',
      uuid: id(),
      session_id,
      isReplay: true,
      message: { role: 'user', content: `prompt ${turn}` },
    });
    for (let call = 0; call < 3; call++) {
      const mid = `msg_${turn}_${call}`;
      const toolId = `toolu_${turn}_${call}`;
      out.push({ type: 'stream_event', uuid: id(), session_id, event: { type: 'message_start' } });
      out.push({
        type: 'assistant',
        uuid: id(),
        session_id,
        parent_tool_use_id: null,
        message: {
          id: mid,
          role: 'assistant',
          content: [{ type: 'text', text: 'working on it' }],
          stop_reason: null,
          usage: { input_tokens: 5, output_tokens: 2 },
        },
      });
      out.push({
        type: 'assistant',
        uuid: id(),
        session_id,
        parent_tool_use_id: null,
        message: {
          id: mid,
          role: 'assistant',
          content: [{ type: 'tool_use', id: toolId, name: 'Read', input: {} }],
          stop_reason: null,
          usage: { input_tokens: 5, output_tokens: 2 },
        },
      });
      out.push({
        type: 'user',
        uuid: id(),
        session_id,
        parent_tool_use_id: null,
        message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolId, content: 'file contents' }] },
      });
    }
    out.push({
      type: 'assistant',
      uuid: id(),
      session_id,
      parent_tool_use_id: null,
      message: {
        id: `msg_${turn}_end`,
        role: 'assistant',
        content: [{ type: 'text', text: 'done' }],
        stop_reason: null,
        usage: { input_tokens: 5, output_tokens: 2 },
      },
    });
    out.push({
      type: 'result',
      subtype: 'success',
      uuid: id(),
      session_id,
      num_turns: 4,
      is_error: false,
      usage: { input_tokens: 20, output_tokens: 8 },
      total_cost_usd: 0.01,
      duration_ms: 900,
    });
  }
  return out.slice(0, count) as StreamMessage[];
}

/** Replays the stream and prints the figures. */
export function benchStream(count = 100_000): void {
  const messages = generateStream(count);
  const tenth = Math.floor(count / 10);
  const marks: number[] = [];
  let state = createStreamState();
  const start = process.hrtime.bigint();
  messages.forEach((m, i) => {
    if (i % tenth === 0) marks.push(Number(process.hrtime.bigint() - start) / 1e6);
    state = reduceStream(state, m, i);
  });
  const total = Number(process.hrtime.bigint() - start) / 1e6;
  marks.push(total);
  const first = (marks[1] ?? 0) - (marks[0] ?? 0);
  const last = (marks[10] ?? total) - (marks[9] ?? 0);
  const snapshotStart = process.hrtime.bigint();
  const session = streamSession(state);
  const snapshotMs = Number(process.hrtime.bigint() - snapshotStart) / 1e6;
  console.log(`stream: ${count} messages, ${session.turns.length} turns`);
  console.log(`  reduceStream  ${total.toFixed(0)} ms  ${Math.round(count / (total / 1000))} messages/s`);
  console.log(
    `  per message: first 10% ${((first * 1000) / tenth).toFixed(2)} µs, last 10% ${((last * 1000) / tenth).toFixed(2)} µs = ${(last / first).toFixed(2)}x`,
  );
  console.log(`  streamSession (the full snapshot, once) ${snapshotMs.toFixed(0)} ms`);
}
