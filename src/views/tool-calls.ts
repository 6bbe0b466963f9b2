import type { Atom, Session, Turn } from '../model/types.ts';
import { toolResultText } from '../model/tool-result-text.ts';
import { isKnownTime } from '../model/time.ts';
import { turnToolBlocks } from './turn-tool-blocks.ts';

/** A `tool_use` and its `tool_result`, paired by id on the active path. */
export interface ToolCall {
  tool_use_id: string;
  name: string;
  input: unknown;
  /** uuid of the assistant atom with the `tool_use`; `null` for an orphan result. */
  useUuid: string | null;
  /** uuid of the user atom with the `tool_result`; `null` while (or when) no result came. */
  resultUuid: string | null;
  /** Time of the use and of the result (epoch ms); `duration_ms` between them (negative only when the file's clock went
   * back), `null` without both or when a time is unknown (`isKnownTime`). */
  t: number | null;
  end: number | null;
  duration_ms: number | null;
  is_error: boolean;
  /** The result's text when it is an error (`is_error`), else `null`. */
  error: string | null;
  /** Id of the turn holding the use (else the result). */
  turnId: string;
}

/**
 * Every tool call of a session (issue #5, "Tool calls"): each `tool_use` paired with its `tool_result`
 * by `tool_use_id`, within this session's active path only (never across sessions). Orphans are kept:
 * a use without a result (`resultUuid: null`: pending, interrupted or never written) and a result
 * without a use (`useUuid: null`: rewritten during self-healing or on a rewound branch, known-failures
 * F11). Pure; in atom order.
 * @param session the session
 * @returns the calls
 */
export function toolCalls(session: Session): ToolCall[] {
  return wantedToolCalls(session, () => true).map(([call]) => call);
}

/** A call of a turn not wanted: paired all the same (a result after it settles it), never made. */
interface Unmade {
  resultUuid: string | null;
}

/** The pairing state after some turns: the calls by `tool_use_id` (the last use of each id, or its orphan) and how many
 * calls each id had. */
interface Pairing {
  calls: Lookup<ToolCall | Unmade>;
  seen: Lookup<number>;
}

/** What the pairing reads and writes of its maps. */
interface Lookup<V> {
  get(key: string): V | undefined;
  set(key: string, value: V): unknown;
}

/** The pairing state of a session's turns before its first wanted one (none made), as last found, by its first Turn
 * object: a live session's finished turns are the same objects from one snapshot to the next, so an append pairs its
 * own turns' blocks only. */
interface Before {
  turns: Turn[];
  calls: Map<string, Unmade>;
  seen: Map<string, number>;
}
const pairedBefore = new WeakMap<Turn, Before>();

/**
 * The tool calls of some turns (`toolCalls`' pairing over the whole session: a result in a wanted turn of a use in
 * another is no orphan), each with how many calls of its `tool_use_id` the session has up to it (1 for the first):
 * the index rewrites an append's turns without making every call of a long session. The pairing of the turns before
 * the first wanted one is kept per first Turn object and continued while those turns stay the same objects.
 * @param session the session
 * @param wanted the turns (by `Turn.id`) whose calls are made
 * @returns the calls of those turns and their occurrences, in atom order
 */
export function wantedToolCalls(session: Session, wanted: (turnId: string) => boolean): Array<[ToolCall, number]> {
  const turns = session.turns;
  let first = turns.findIndex((t) => wanted(t.id));
  if (first === -1) first = turns.length;
  const order: Array<[ToolCall, number]> = [];
  const head = turns[0];
  if (first === 0 || head === undefined) {
    const pairing = { calls: new Map<string, ToolCall | Unmade>(), seen: new Map<string, number>() };
    for (const turn of turns) pairTurn(turn, wanted(turn.id), pairing, order);
    return order;
  }
  let before = pairedBefore.get(head);
  if (before === undefined || before.turns.length > first || before.turns.some((t, i) => t !== turns[i])) {
    before = { turns: [], calls: new Map(), seen: new Map() };
    pairedBefore.set(head, before);
  }
  for (let i = before.turns.length; i < first; i++) {
    pairTurn(turns[i] as Turn, false, before, order);
    before.turns.push(turns[i] as Turn);
  }
  const pairing: Pairing = { calls: overlay(before.calls), seen: overlay(before.seen) };
  for (const turn of turns.slice(first)) pairTurn(turn, wanted(turn.id), pairing, order);
  return order;
}

/** A map read through to `base` and written to one of its own (`base` is never changed). */
function overlay<V>(base: ReadonlyMap<string, V>): Lookup<V> {
  const own = new Map<string, V>();
  return { get: (key) => (own.has(key) ? own.get(key) : base.get(key)), set: (key, value) => own.set(key, value) };
}

/** Pairs one turn's tool blocks on `pairing`, its calls made (into `order`) when `made`. */
function pairTurn(turn: Turn, made: boolean, { calls, seen }: Pairing, order: Array<[ToolCall, number]>): void {
  const occurrence = (id: string): number => {
    const n = (seen.get(id) ?? 0) + 1;
    seen.set(id, n);
    return n;
  };
  for (const { atom, block: b } of turnToolBlocks(turn)) {
    if (atom.type === 'assistant' && b.type === 'tool_use') {
      const n = occurrence(b.id);
      if (!made) {
        calls.set(b.id, { resultUuid: null });
        continue;
      }
      const call: ToolCall = {
        tool_use_id: b.id,
        name: b.name,
        input: b.input,
        useUuid: atom.uuid,
        resultUuid: null,
        t: atom.t,
        end: null,
        duration_ms: null,
        is_error: false,
        error: null,
        turnId: turn.id,
      };
      calls.set(b.id, call);
      order.push([call, n]);
    } else if (b.type === 'tool_result') {
      const id = b.tool_use_id;
      const error = (): string | null => (b.is_error === true ? toolResultText(b.content) : null);
      const call = calls.get(id);
      if (call !== undefined && call.resultUuid === null) {
        // a call not made is settled by a marker of its own: a kept pairing's markers are never changed
        if ('turnId' in call) paired(call, atom, error());
        else calls.set(id, { resultUuid: atom.uuid });
        continue;
      }
      const n = occurrence(id);
      if (!made) {
        if (call === undefined) calls.set(id, { resultUuid: atom.uuid });
        continue;
      }
      const orphan = orphanCall(id, atom, error(), turn.id);
      if (call === undefined) calls.set(id, orphan);
      order.push([orphan, n]);
    }
  }
}

/** Pairs a result (its error text, `null` when it is no error) with its call. */
function paired(call: ToolCall, atom: Atom, error: string | null): void {
  call.resultUuid = atom.uuid;
  call.end = atom.t;
  call.duration_ms = call.t === null || !isKnownTime(call.t) || !isKnownTime(atom.t) ? null : atom.t - call.t;
  call.is_error = error !== null;
  call.error = error;
}

/** A result without a use (or whose use already has one): an orphan call. */
function orphanCall(id: string, atom: Atom, error: string | null, turnId: string): ToolCall {
  return {
    tool_use_id: id,
    name: '',
    input: undefined,
    useUuid: null,
    resultUuid: atom.uuid,
    t: null,
    end: atom.t,
    duration_ms: null,
    is_error: error !== null,
    error,
    turnId,
  };
}
