/** Builders for hand-written stream-json messages (stream-protocol.md §5). */
type Fields = Record<string, unknown>;

export const STREAM_SID = 'stream-session';

/** An `assistant` frame: one block of response `mid`, `stop_reason: null` as the stream sends it. */
export function sAssistant(uuid: string, mid: string, block: Fields, extra: Fields = {}): Fields {
  return {
    type: 'assistant',
    uuid,
    session_id: STREAM_SID,
    parent_tool_use_id: null,
    message: {
      id: mid,
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-5',
      content: [block],
      stop_reason: null,
      usage: { input_tokens: 3, output_tokens: 2 },
    },
    ...extra,
  };
}

/** A `user` frame. */
export function sUser(uuid: string, content: unknown, extra: Fields = {}): Fields {
  return {
    type: 'user',
    uuid,
    session_id: STREAM_SID,
    parent_tool_use_id: null,
    message: { role: 'user', content },
    ...extra,
  };
}

/** A `result` frame. */
export function sResult(uuid: string, extra: Fields = {}): Fields {
  return {
    type: 'result',
    subtype: 'success',
    uuid,
    session_id: STREAM_SID,
    is_error: false,
    num_turns: 1,
    duration_ms: 1200,
    stop_reason: 'end_turn',
    total_cost_usd: 0.01,
    usage: { input_tokens: 10, output_tokens: 20 },
    ...extra,
  };
}

/** A `system` frame of a subtype. */
export function sSystem(subtype: string, extra: Fields = {}): Fields {
  return { type: 'system', subtype, session_id: STREAM_SID, ...extra };
}
