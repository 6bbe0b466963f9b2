import { isKnownBlock } from '../model/is-known-block.ts';
import { knownBlocks } from '../model/known-blocks.ts';
import type { Atom, Author, MessageBlock, StopReason, Turn } from '../model/types.ts';
import { HARNESS_TEXT, startsWithHarness } from './harness-text.ts';
import { turnId } from './turn-id.ts';

/**
 * A turn boundary that is not an atom: on the file substrate, a `system` / `turn_duration` row, which
 * Claude Code (2.0.77+) writes when a turn ends, or a `stop_hook_summary` row of Stop hooks that let it end.
 */
export interface TurnEndMarker {
  type: 'turn_end';
  t: number;
}

/**
 * What closes a turn:
 * - `stop_reason` (file substrate): a final `stop_reason`, an interrupt, a `TurnEndMarker`; with
 *   `stop_reason` unknown (`null`), an opener when no `tool_use` is pending;
 * - `result` (stream substrate): the `result` atom, and only it.
 */
export type BoundaryMode = 'stop_reason' | 'result';

/** Stop reasons after which the model does not go on by itself. */
const CONTINUING: ReadonlySet<string> = new Set(['tool_use', 'pause_turn']);

const INTERRUPT = HARNESS_TEXT.interrupt;

/** What Claude Code writes when it answers a prompt without calling the model: a local command's output, a hook's stop.
 * */
const NO_MODEL_CALL: readonly string[] = [...HARNESS_TEXT.localOutput, HARNESS_TEXT.hookStopped];

/** An immutable list, newest first: appending shares everything already there. */
interface Cons<T> {
  readonly head: T;
  readonly tail: Cons<T> | null;
}

function toArray<T>(list: Cons<T> | null): T[] {
  const out: T[] = [];
  for (let c = list; c !== null; c = c.tail) out.push(c.head);
  return out.reverse();
}

interface Draft {
  trigger: Atom | null;
  atoms: Cons<Atom>;
  /** `message.id` of the last assistant atom, and the last non-null `stop_reason` seen for it. */
  lastMessageId: string | undefined;
  stop: StopReason;
  hasAssistant: boolean;
  lastBlockType: string | undefined;
  /** `tool_use` ids without a `tool_result` yet. */
  pending: Set<string>;
  interrupted: boolean;
  endSeen: boolean;
  /** Claude Code answered the prompt itself, before any response: a local command, a blocked prompt. */
  noModelCall: boolean;
}

/**
 * The turn builder's state between two atoms. `stepTurns` never changes a state it is given (it
 * copies the few fields a step touches and shares every atom list), so it serves a pure stream reducer
 * as well as a fold over a file's atoms.
 */
export interface TurnsState {
  readonly mode: BoundaryMode;
  /** Drafts before the current one, newest first. */
  readonly done: Cons<Draft> | null;
  readonly current: Draft | undefined;
  /** Whether a boundary was passed since the current turn's last atom. */
  readonly closed: boolean;
  /** Non-opener atoms after a boundary, newest first, waiting for what comes next. */
  readonly waiting: Cons<Atom> | null;
  /** `message.id` of the atom just stepped when it was an assistant atom: the response a next line may continue. */
  readonly previousId: string | undefined;
}

/** A state this module owns and may change in place (`buildTurns`' fold, or a copy in `stepTurns`). */
type Mutable = { -readonly [K in keyof TurnsState]: TurnsState[K] };

/**
 * Whether an author opens a turn when its atom arrives after a boundary (seed, "Turn-opener rule").
 * @param author a user atom's author
 * @returns true for human, sdk and peer
 */
export function isOpenerAuthor(author: Author | undefined): boolean {
  return author === 'human' || author === 'sdk' || (typeof author === 'object' && author !== null);
}

/**
 * An empty turn builder.
 * @param mode what closes a turn (`stop_reason` for files, `result` for streams)
 * @returns the initial state
 */
export function initialTurns(mode: BoundaryMode = 'stop_reason'): TurnsState {
  return { mode, done: null, current: undefined, closed: true, waiting: null, previousId: undefined };
}

/**
 * Adds one atom (or turn-end marker) to the turn builder; pure: returns a new state and shares the old
 * one's atoms. Cost per step does not grow with the session (only with the number of pending tool
 * calls).
 *
 * - A boundary (see `BoundaryMode`) closes the current turn.
 * - An opener (a user atom by human, sdk or a peer) opens a turn after a boundary; in `stop_reason`
 *   mode (files) a human or sdk line always does (`takesFloor`), and a peer's when the model does not
 *   hold the floor. A line that carries the result of a tool call the turn waits for never opens, even
 *   with text a human typed beside it; nor does an atom the caller marks `absorbed` (a `queued_command` attachment);
 *   neither does any user atom before the turn's `result` in `result` mode (streams).
 * - Other atoms after a boundary wait: an opener takes them into the turn before it (they fold into the
 *   finished work: hook feedback, idle spans) or, before the first turn, into its own turn, ahead of its
 *   trigger; a local command's caveat (`<local-command-caveat>`, written just before the command) and
 *   what waits after it go ahead of the opener's trigger too; an assistant atom of a new response, or a
 *   `result`, starts a turn with `trigger: null` (autonomous: e.g. a reply to a task notification, an
 *   unrequested result) that begins with them.
 *
 * @param state the builder so far
 * @param item the next atom or marker, in conversation order
 * @param absorbed the atom is known to have been absorbed into the running turn
 * @returns the new state
 */
export function stepTurns(state: TurnsState, item: Atom | TurnEndMarker, absorbed = false): TurnsState {
  // the current draft is the one object a step changes: copy it, with its pending set
  const current = state.current === undefined ? undefined : copyDraft(state.current, new Set(state.current.pending));
  const copy = copyState(state, current);
  step(copy, item, absorbed);
  return copy;
}

/**
 * A copy of a state with another current draft. A literal, not a spread: a spread's copy has a shape (V8
 * map) of its own, which the collector drops with the last such object, and the code compiled for it with
 * it (see `refOf`).
 */
function copyState(state: TurnsState, current: Draft | undefined): Mutable {
  const { mode, done, closed, waiting, previousId } = state;
  return { mode, done, current, closed, waiting, previousId };
}

/** A copy of a draft with another pending set (a literal: see `copyState`). */
function copyDraft(draft: Draft, pending: Set<string>): Draft {
  const { trigger, atoms, lastMessageId, stop, hasAssistant, lastBlockType, interrupted, endSeen, noModelCall } = draft;
  return {
    trigger,
    atoms,
    lastMessageId,
    stop,
    hasAssistant,
    lastBlockType,
    pending,
    interrupted,
    endSeen,
    noModelCall,
  };
}

/** One step of the builder, in place on a state this module owns. */
function step(state: Mutable, item: Atom | TurnEndMarker, absorbed: boolean): void {
  const { current, closed, previousId } = state;
  state.previousId = item.type === 'assistant' ? (item as Atom).message?.id : undefined;
  if (item.type === 'turn_end') {
    if (current !== undefined) current.endSeen = true;
    state.closed = true;
    return;
  }
  const atom = item as Atom;
  const opens =
    atom.type === 'user' &&
    isOpenerAuthor(atom.author) &&
    !absorbed &&
    !answersPending(current, atom) &&
    (closed || current === undefined || takesFloor(state, atom));
  if (opens && current === undefined) {
    // what came before the first prompt (a caveat, a compaction the context view starts at) is its turn's
    state.current = open(atom, { head: atom, tail: state.waiting });
    state.waiting = null;
    state.closed = false;
  } else if (opens) {
    // a local command's caveat is written before it in the chain (stamped after it): it is the command's
    const carried = takeCaveat(state);
    settle(state);
    state.done = push(state.done, state.current);
    state.current = open(atom, { head: atom, tail: carried });
    state.closed = false;
  } else {
    // 2.1.112+ repeats the final stop_reason on every line of a response: its later lines continue it.
    // They follow each other: after any other atom, the same id is a new response (a relay reusing one id)
    const continuesResponse =
      atom.type === 'assistant' && atom.message?.id !== undefined && atom.message.id === previousId;
    if (closed && ((atom.type === 'assistant' && !continuesResponse) || atom.type === 'result')) {
      // a new response, or a result nobody asked for (a zero-turn or unrequested result), after a boundary
      state.done = push(state.done, current);
      state.current = open(null, { head: atom, tail: state.waiting });
      state.waiting = null;
      state.closed = false;
    } else if ((closed && !continuesResponse) || current === undefined) {
      state.waiting = { head: atom, tail: state.waiting };
      return;
    } else {
      current.atoms = { head: atom, tail: current.atoms };
    }
  }
  state.closed = observe(state, state.current as Draft, atom);
}

/**
 * The turns built so far, oldest first; every atom given is in exactly one. Atoms still waiting join
 * the last turn (or, before any, form a turn with `trigger: null`).
 *
 * `ended`: true after an interrupt, a `TurnEndMarker`, a `result`, or (files) a prompt Claude Code
 * answered without a model call (local command output, "Operation stopped by hook", a blocked prompt); else from the
 * last response's
 * `stop_reason` when known; else (all `null`) when the turn's last block is text, no `tool_use` is
 * pending and another turn follows; a turn without assistant atoms ended when another turn follows.
 *
 * @param state the builder
 * @param rompUuid the session's identity, for turn ids
 * @returns the turns
 */
export function finishTurns(state: TurnsState, rompUuid: string): Turn[] {
  const settled = copyState(
    state,
    state.current === undefined ? undefined : copyDraft(state.current, state.current.pending),
  );
  settle(settled);
  const done = doneTurns(settled.done, rompUuid);
  return settled.current === undefined ? [...done] : [...done, finish(settled.current, false, rompUuid)];
}

/**
 * The turns of the drafts in `done`, oldest first. A draft in `done` never changes again, so the list
 * is built once per `done` and kept for its head only; a longer list starts from a copy of the one it
 * extends (which is then dropped), so a live session re-finishing after every line pays for the
 * current turn, plus one copy when a turn opens, and memory stays linear.
 */
function doneTurns(done: Cons<Draft> | null, rompUuid: string): Turn[] {
  if (done === null) return [];
  const newer: Array<Cons<Draft>> = [];
  let base: Turn[] = [];
  for (let c: Cons<Draft> | null = done; c !== null; c = c.tail) {
    const hit = finished.get(c);
    if (hit !== undefined && hit.rompUuid === rompUuid) {
      if (c === done) return hit.turns;
      base = hit.turns;
      finished.delete(c);
      break;
    }
    newer.push(c);
  }
  const turns = [...base];
  for (let i = newer.length - 1; i >= 0; i--) turns.push(finish((newer[i] as Cons<Draft>).head, true, rompUuid));
  finished.set(done, { rompUuid, turns });
  return turns;
}

const finished = new WeakMap<Cons<Draft>, { rompUuid: string; turns: Turn[] }>();

/**
 * The tree stage for a whole sequence: groups ordered atoms into turns (seed, "Turn boundaries and
 * the absorb/queue mechanism"); `stepTurns` over every item, then `finishTurns`.
 *
 * @param items atoms in conversation order, with turn-end markers among them
 * @param rompUuid the session's identity, for turn ids
 * @param mode what closes a turn
 * @param absorbed uuids of atoms known to be absorbed mid-turn
 * @returns the turns, oldest first
 */
export function buildTurns(
  items: ReadonlyArray<Atom | TurnEndMarker>,
  rompUuid: string,
  mode: BoundaryMode = 'stop_reason',
  absorbed: ReadonlySet<string> = new Set(),
): Turn[] {
  return finishTurns(foldTurns(items, mode, absorbed), rompUuid);
}

/**
 * `stepTurns` over a whole sequence, in place on a state the fold owns (the same steps, without the
 * copies); `finishTurns` turns the result into turns, and `stepTurns` can go on from it.
 * @param items atoms in conversation order, with turn-end markers among them
 * @param mode what closes a turn
 * @param absorbed uuids of atoms known to be absorbed mid-turn
 * @returns the builder's state after the last item
 */
export function foldTurns(
  items: ReadonlyArray<Atom | TurnEndMarker>,
  mode: BoundaryMode = 'stop_reason',
  absorbed: ReadonlySet<string> = new Set(),
): TurnsState {
  const state: Mutable = initialTurns(mode);
  const anyAbsorbed = absorbed.size > 0;
  for (const item of items)
    step(state, item, anyAbsorbed && item.type !== 'turn_end' && absorbed.has((item as Atom).uuid));
  return state;
}

function push<T>(list: Cons<T> | null, value: T | undefined): Cons<T> | null {
  return value === undefined ? list : { head: value, tail: list };
}

function open(trigger: Atom | null, atoms: Cons<Atom>): Draft {
  return {
    trigger,
    atoms,
    lastMessageId: undefined,
    stop: null,
    hasAssistant: false,
    lastBlockType: undefined,
    pending: new Set(),
    interrupted: false,
    endSeen: false,
    noModelCall: false,
  };
}

/**
 * Takes the waiting atoms from the first local-command caveat on out of `waiting`, for the turn an
 * opener starts.
 * @returns them, newest first, ready to sit below the trigger; `null` when no caveat waits
 */
function takeCaveat(state: Mutable): Cons<Atom> | null {
  if (state.waiting === null) return null;
  const waiting = toArray(state.waiting);
  const first = waiting.findIndex(
    (a) => a.type === 'user' && startsWithHarness(a.message?.content, HARNESS_TEXT.caveat),
  );
  if (first < 0) return null;
  let kept: Cons<Atom> | null = null;
  let carried: Cons<Atom> | null = null;
  waiting.forEach((atom, i) => {
    if (i < first) kept = { head: atom, tail: kept };
    else carried = { head: atom, tail: carried };
  });
  state.waiting = kept;
  return carried;
}

/** Moves waiting atoms into the current turn, or into a new `trigger: null` turn when there is none. */
function settle(state: Mutable): void {
  if (state.waiting === null) return;
  const waiting = toArray(state.waiting);
  state.waiting = null;
  if (state.current === undefined) {
    let atoms: Cons<Atom> | null = null;
    for (const atom of waiting) atoms = { head: atom, tail: atoms };
    state.current = open(null, atoms as Cons<Atom>);
    return;
  }
  for (const atom of waiting) state.current.atoms = { head: atom, tail: state.current.atoms };
}

/**
 * File substrate: whether an opener takes the floor mid-turn. Claude Code writes a prompt as a user
 * line only when it starts a request of its own (a prompt absorbed mid-turn is an attachment, or not
 * written at all before 2.1.112), so a human or sdk line always does, even after a `tool_use` that
 * was never answered (an abandoned call must not swallow later prompts). A peer's hook-injected line
 * does only when the model does not hold the floor.
 */
function takesFloor(state: Mutable, atom: Atom): boolean {
  if (state.mode !== 'stop_reason') return false;
  return atom.author === 'human' || atom.author === 'sdk' || !holdsFloor(state.current as Draft);
}

/**
 * Whether a user atom carries the result of a tool call the turn is waiting for: it continues the turn
 * even when it also holds text a human typed (a permission answer with feedback, a prompt sent along with
 * the result).
 */
function answersPending(d: Draft | undefined, atom: Atom): boolean {
  if (d === undefined || d.pending.size === 0) return false;
  for (const block of knownBlocks(atom.message?.content)) {
    if (block.type === 'tool_result' && d.pending.has(block.tool_use_id)) return true;
  }
  return false;
}

/** Whether the model still holds the floor: it asked for a tool, or may have (stop unknown, tool pending). */
function holdsFloor(d: Draft): boolean {
  if (!d.hasAssistant || d.interrupted) return false;
  if (d.stop === null) return d.pending.size > 0;
  return CONTINUING.has(d.stop);
}

/** Updates the current draft with an atom it took; returns whether the turn is closed after it. */
function observe(state: Mutable, d: Draft, atom: Atom): boolean {
  const content: MessageBlock[] = atom.message?.content ?? [];
  if (atom.type === 'result') {
    d.endSeen = true;
    return true;
  }
  if (atom.type === 'assistant') {
    const id = atom.message?.id;
    const raw = atom.message?.stop_reason;
    d.stop = raw !== undefined && raw !== null ? raw : id !== undefined && id === d.lastMessageId ? d.stop : null;
    d.lastMessageId = id;
    d.hasAssistant = true;
    for (const block of content) {
      if (isKnownBlock(block) && block.type === 'tool_use') d.pending.add(block.id);
      d.lastBlockType = block.type;
    }
    return state.mode === 'stop_reason' && d.stop !== null && !CONTINUING.has(d.stop);
  }
  if (atom.type !== 'user') return state.closed;
  for (const block of content) {
    if (isKnownBlock(block) && block.type === 'tool_result') d.pending.delete(block.tool_use_id);
    if (startsWithInterrupt(block)) d.interrupted = true;
  }
  if (state.mode !== 'stop_reason') return state.closed;
  // no request follows: a local command's output or a hook's stop, or a prompt a hook blocked outright
  if (!d.hasAssistant && (atom.subtype === 'informational' || startsWithHarness(content, NO_MODEL_CALL)))
    d.noModelCall = true;
  return state.closed || d.interrupted || d.noModelCall;
}

function startsWithInterrupt(block: MessageBlock): boolean {
  const text = !isKnownBlock(block)
    ? undefined
    : block.type === 'text'
      ? block.text
      : block.type === 'tool_result'
        ? block.content
        : undefined;
  if (typeof text !== 'string') return false;
  // most blocks fail at their first non-blank character: no trimmed copy of a long tool output
  let i = 0;
  // ASCII blanks, as trimStart sees them
  for (let c = text.charCodeAt(0); c === 32 || (c >= 9 && c <= 13); c = text.charCodeAt(++i));
  const first = text.charCodeAt(i);
  if (first > 127) return text.trimStart().startsWith(INTERRUPT); // Unicode blanks: as trimStart sees them
  return first === 91 && text.startsWith(INTERRUPT, i);
}

function finish(d: Draft, hasNext: boolean, rompUuid: string): Turn {
  const atoms = toArray(d.atoms);
  const first = atoms[0] as Atom;
  const t = d.trigger?.t ?? first.t;
  let end = t;
  for (const atom of atoms) end = Math.max(end, atom.end ?? atom.t);
  return {
    id: turnId(rompUuid, t, (d.trigger ?? first).uuid),
    trigger: d.trigger === null ? null : { uuid: d.trigger.uuid },
    t,
    end,
    ended: ended(d, hasNext),
    atoms,
  };
}

function ended(d: Draft, hasNext: boolean): boolean {
  if (d.interrupted || d.endSeen || d.noModelCall) return true;
  if (d.stop !== null) return !CONTINUING.has(d.stop);
  if (!d.hasAssistant) return hasNext;
  return d.lastBlockType === 'text' && d.pending.size === 0 && hasNext;
}
