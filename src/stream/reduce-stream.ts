import type { SDKMessage } from '@anthropic-ai/claude-agent-sdk';
import { compactMetadata } from '../tree/compact-metadata.ts';
import type { Atom, AtomFields, MessageAtom, ResultPayload, Session, Usage } from '../model/types.ts';
import type { RawRecord } from '../read/parse-line.ts';
import { keyed, keyedCopy } from '../model/keyed.ts';
import { colorOf } from '../model/color-of.ts';
import { parseTimestamp } from '../read/parse-timestamp.ts';
import { finishTurns, initialTurns, stepTurns, type TurnsState } from '../tree/build-turns.ts';
import { deriveAuthor, type ResolvePeer } from '../tree/derive-author.ts';
import { normaliseMessage } from '../tree/normalise-message.ts';

/** One message of the stream: the Agent SDK's `SDKMessage`, or any parsed stream-json line. */
export type StreamMessage = SDKMessage | RawRecord;

/** Options fixed when a stream starts. */
export interface StreamOptions {
  /** The session's identity; default: the first `session_id` seen. */
  rompUuid?: string;
  /** Looks up the sender of a postal message; default: none known (`peer: null`). */
  resolvePeer?: ResolvePeer;
}

/** An immutable list, newest first. */
interface Lane {
  readonly head: Atom;
  readonly tail: Lane | null;
}

/**
 * The stream reducer's state. Immutable: `reduceStream` returns a new one and shares what did not
 * change, so a snapshot taken earlier never moves.
 */
export interface StreamState {
  readonly options: StreamOptions;
  readonly rompUuid: string | undefined;
  /** `cwd` of the latest `system/init`. */
  readonly dir: string;
  /** Messages reduced so far. */
  readonly count: number;
  readonly turns: TurnsState;
  /** Subagent frames by the `tool_use` id that spawned them (`parent_tool_use_id`), newest first; no prototype
   * (`keyed`). */
  readonly subagents: Readonly<Record<string, Lane>>;
  /** uuids removed by `supersedes` / `retracted_message_uuids`. */
  readonly removed: ReadonlySet<string>;
  /** Messages that made no atom, by `type` or `type:subtype`; no prototype (`keyed`). */
  readonly ignored: Readonly<Record<string, number>>;
  /** Start (epoch ms) of an idle span not closed yet. */
  readonly idleSince: number | undefined;
}

/**
 * A new, empty stream state.
 * @param options rompUuid and postal lookup
 * @returns the state
 */
export function createStreamState(options: StreamOptions = {}): StreamState {
  return {
    options,
    rompUuid: options.rompUuid,
    dir: '',
    count: 0,
    turns: initialTurns('result'),
    subagents: keyed(),
    removed: new Set(),
    ignored: keyed(),
    idleSince: undefined,
  };
}

/**
 * The stream substrate's reducer (seed: "on a stream you receive it"): folds one message into the
 * state and returns a new state, never mutating the old one. Cost per message does not grow with the
 * session.
 *
 * - `assistant` → an assistant atom (one content block, `message.id` shared across a response).
 * - `user` → a user atom; `author` from `deriveAuthor` (prompts the host sent: `sdk`; replays keep
 *   theirs; `isSynthetic` summaries: `system`; tool_result-only: none). A user message before the turn's
 *   `result` stays inside the turn (absorbed); after it, an opener starts a new turn.
 * - Frames with `parent_tool_use_id` go to that `tool_use`'s subagent lane, never into the main turns.
 * - `result` → a `result` atom carrying `{subtype, num_turns, stop_reason, usage, total_cost_usd,
 *   duration_ms, is_error}`; it ends the turn (`ended: true`).
 * - `system/compact_boundary` → a `system:compact_boundary` atom with `compact_metadata`.
 * - `system/init` → sets `dir` (and the rompUuid when none was given); no atom.
 * - `system/session_state_changed`: `idle` opens an idle span; the next other state closes it as an
 *   `idle` atom `[t, end]`.
 * - `supersedes` (assistant) and `retracted_message_uuids` (`system/model_refusal_fallback`) remove
 *   the atoms they name.
 * - `stream_event` partials and every other type or subtype make no atom; they are counted in `ignored`.
 *
 * `t` is the message's `timestamp` when it carries one, else `now` (arrival).
 * Frames without a uuid get a generated one, `${session_id}:${n}` (n = the message's index).
 *
 * @param state the state so far (`undefined` for a new stream with default options)
 * @param message the next message
 * @param now arrival time (epoch ms)
 * @returns the new state
 */
export function reduceStream(state: StreamState | undefined, message: StreamMessage, now: number): StreamState {
  const s = state ?? createStreamState();
  const m = message as RawRecord;
  const sessionId = typeof m['session_id'] === 'string' ? m['session_id'] : undefined;
  const next: StreamState = { ...s, count: s.count + 1, rompUuid: s.rompUuid ?? sessionId };
  const stamp = parseTimestamp(m['timestamp']);
  const t = Number.isNaN(stamp) ? now : stamp;
  const base = (): AtomFields => ({
    uuid: typeof m['uuid'] === 'string' ? m['uuid'] : `${sessionId ?? 'stream'}:${s.count}`,
    session_id: next.rompUuid ?? '',
    t,
  });
  const type = typeof m['type'] === 'string' ? m['type'] : '(no type)';
  const subtype = typeof m['subtype'] === 'string' ? m['subtype'] : undefined;

  if (type === 'assistant' || type === 'user') {
    const atom: MessageAtom = { type, ...base(), message: normaliseMessage(type, m['message']) };
    if (type === 'assistant' && typeof m['request_id'] === 'string') atom.request_id = m['request_id'];
    if (type === 'user') {
      const author = deriveAuthor(m, atom.message.content, s.options.resolvePeer ?? (() => null), 'sdk');
      if (author !== undefined) atom.author = author;
    }
    const removed = Array.isArray(m['supersedes']) ? withRemoved(next.removed, m['supersedes']) : next.removed;
    return addAtom({ ...next, removed }, atom, m['parent_tool_use_id']);
  }
  if (type === 'result') {
    const atom: Atom = { type: 'result', ...base(), result: resultPayload(m) };
    return addAtom(next, atom, null);
  }
  if (type === 'system' && subtype === 'compact_boundary') {
    const atom: Atom = {
      type: 'system',
      ...base(),
      subtype: 'compact_boundary',
      compact_metadata: compactMetadata(m['compact_metadata'], 'snake'),
    };
    return addAtom(next, atom, null);
  }
  if (type === 'system' && subtype === 'init') {
    return { ...next, dir: typeof m['cwd'] === 'string' ? m['cwd'] : next.dir };
  }
  if (type === 'system' && subtype === 'session_state_changed') {
    if (m['state'] === 'idle') return next.idleSince === undefined ? { ...next, idleSince: t } : next;
    if (next.idleSince === undefined) return next;
    const idle: Atom = {
      type: 'idle',
      uuid: `idle:${next.idleSince}`,
      session_id: next.rompUuid ?? '',
      t: next.idleSince,
      end: t,
    };
    return addAtom({ ...next, idleSince: undefined }, idle, null);
  }
  const key = subtype === undefined ? type : `${type}:${subtype}`;
  const counted = { ...next, ignored: keyedCopy(next.ignored, key, (next.ignored[key] ?? 0) + 1) };
  const retracted = m['retracted_message_uuids'];
  return Array.isArray(retracted) ? { ...counted, removed: withRemoved(counted.removed, retracted) } : counted;
}

const snapshots = new WeakMap<StreamState, Session>();

/**
 * The Session a stream state stands for: the same model the file adapter builds (no `fsid`,
 * `parentUuid` or file records; `result` atoms that files cannot have). Memoised per state.
 *
 * An open idle span is shown ending at the last message's time. Subagent lanes are in `subagents`,
 * keyed by the spawning `tool_use` id.
 *
 * @param state the stream state
 * @returns the session snapshot
 */
export function streamSession(state: StreamState): Session {
  const cached = snapshots.get(state);
  if (cached !== undefined) return cached;
  const rompUuid = state.rompUuid ?? '';
  const keep = (a: Atom): boolean => !state.removed.has(a.uuid);
  const turns = finishTurns(state.turns, rompUuid)
    .map((turn) => (state.removed.size === 0 ? turn : { ...turn, atoms: turn.atoms.filter(keep) }))
    .filter((turn) => turn.atoms.length > 0);
  const subagents = keyed<Atom[]>();
  for (const [id, lane] of Object.entries(state.subagents)) {
    const atoms: Atom[] = [];
    for (let c: Lane | null = lane; c !== null; c = c.tail) if (keep(c.head)) atoms.push(c.head);
    subagents[id] = atoms.reverse();
  }
  const session: Session = {
    rompUuid,
    name: '',
    dir: state.dir,
    color: colorOf(rompUuid),
    leafFsid: '',
    turns,
    files: [],
    records: [],
    subagents,
  };
  snapshots.set(state, session);
  return session;
}

function addAtom(state: StreamState, atom: Atom, lane: unknown): StreamState {
  if (typeof lane === 'string') {
    return {
      ...state,
      subagents: keyedCopy(state.subagents, lane, { head: atom, tail: state.subagents[lane] ?? null }),
    };
  }
  return { ...state, turns: stepTurns(state.turns, atom) };
}

function withRemoved(removed: ReadonlySet<string>, uuids: unknown[]): ReadonlySet<string> {
  const next = new Set(removed);
  for (const u of uuids) if (typeof u === 'string') next.add(u);
  return next;
}

function resultPayload(m: RawRecord): ResultPayload {
  const number = (key: string): number => (typeof m[key] === 'number' ? (m[key] as number) : 0);
  return {
    subtype: typeof m['subtype'] === 'string' ? m['subtype'] : 'unknown',
    num_turns: number('num_turns'),
    stop_reason: typeof m['stop_reason'] === 'string' ? m['stop_reason'] : null,
    usage: (m['usage'] ?? { input_tokens: 0, output_tokens: 0 }) as Usage,
    total_cost_usd: number('total_cost_usd'),
    duration_ms: number('duration_ms'),
    is_error: m['is_error'] === true,
    ...(typeof m['terminal_reason'] === 'string' ? { terminal_reason: m['terminal_reason'] } : {}),
    ...(typeof m['local_command'] === 'string' ? { local_command: m['local_command'] } : {}),
  };
}
