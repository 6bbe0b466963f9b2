import type { Session } from '../model/types.ts';
import {
  createStreamState,
  reduceStream,
  streamSession,
  type StreamMessage,
  type StreamOptions,
  type StreamState,
} from './reduce-stream.ts';

/** Options of `fromStream`: the stream's options, and the clock that stamps arrivals. */
export interface FromStreamOptions extends StreamOptions {
  /** Arrival time of each message (epoch ms); default `Date.now`. Injected for replays and tests. */
  now?: () => number;
}

/** One snapshot: the Session so far, and the reducer state it came from (for `ignored`, `count`). */
export interface StreamSnapshot {
  session: Session;
  state: StreamState;
}

/**
 * Builds the Session live from an Agent SDK / stream-json message stream (`query()`'s messages, or
 * `decodeStream` over `claude -p --output-format stream-json --verbose` output).
 *
 * Yields a snapshot each time a turn ends (a `result` arrives) and once when the stream ends, so a
 * consumer re-renders per turn; `reduceStream` gives per-message control.
 *
 * ```ts
 * for await (const { session } of fromStream(query({ prompt }))) render(session.turns.at(-1));
 * ```
 *
 * @param source the messages, sync or async
 * @param options rompUuid, postal lookup, clock
 * @returns the snapshots
 */
export async function* fromStream(
  source: AsyncIterable<StreamMessage> | Iterable<StreamMessage>,
  options: FromStreamOptions = {},
): AsyncIterable<StreamSnapshot> {
  const now = options.now ?? Date.now;
  let state = createStreamState(options);
  for await (const message of source) {
    state = reduceStream(state, message, now());
    if ((message as { type?: unknown }).type === 'result') yield { session: streamSession(state), state };
  }
  yield { session: streamSession(state), state };
}
