import type { Atom, Author, ContentBlock, StopReason, Turn } from '../model/types.ts';
import { turnId } from './turn-id.ts';

/**
 * A turn boundary that is not an atom: on the file substrate, a `system` / `turn_duration` row, which
 * Claude Code (2.0.77+) writes when a turn ends.
 */
export interface TurnEndMarker {
  type: 'turn_end';
  t: number;
}

/** Stop reasons after which the model does not go on by itself. */
const CONTINUING: ReadonlySet<string> = new Set(['tool_use', 'pause_turn']);

const INTERRUPT = '[Request interrupted by user';

/**
 * Whether an author opens a turn when its atom arrives after a boundary (seed, "Turn-opener rule").
 * @param author a user atom's author
 * @returns true for human, sdk and peer
 */
export function isOpenerAuthor(author: Author | undefined): boolean {
  return author === 'human' || author === 'sdk' || (typeof author === 'object' && author !== null);
}

interface Draft {
  trigger: Atom | null;
  atoms: Atom[];
  /** `message.id` of the last assistant atom, and the last non-null `stop_reason` seen for it. */
  lastMessageId: string | undefined;
  stop: StopReason;
  hasAssistant: boolean;
  lastBlockType: string | undefined;
  /** `tool_use` ids without a `tool_result` yet. */
  pending: Set<string>;
  interrupted: boolean;
  endSeen: boolean;
}

/**
 * The tree stage: groups ordered atoms into turns (seed, "Turn boundaries and the absorb/queue
 * mechanism"). Pure; the same for both substrates.
 *
 * - A turn boundary is an assistant atom whose response's `stop_reason` (last non-null value per
 *   `message.id`) is final (anything but `tool_use` / `pause_turn`), a user interrupt
 *   (`[Request interrupted by user…]`), or a `TurnEndMarker`.
 * - An opener (a user atom by human, sdk or a peer) opens a turn after a boundary, or when the model
 *   does not hold the floor: when the last response's `stop_reason` is unknown (`null`, as Claude Code
 *   ≤2.1.20 writes it) and no `tool_use` awaits its result. Otherwise it stays inside the turn (absorbed).
 * - Other atoms after a boundary wait: an opener takes them into the turn before it (they fold into the
 *   finished work: caveats, hook feedback); an assistant atom of a new response starts a turn with
 *   `trigger: null` (autonomous: e.g. a reply to a task notification) that begins with them.
 * - Atoms before the first opener form a turn with `trigger: null`.
 * - `ended`: true after an interrupt or a `TurnEndMarker`; else from the last response's `stop_reason`
 *   when known; else (all `null`) when the turn's last block is text, no `tool_use` is pending and
 *   another turn follows; a turn without assistant atoms ended when another turn follows.
 *
 * @param items atoms in conversation order, with turn-end markers among them
 * @param rompUuid the session's identity, for turn ids
 * @returns the turns, oldest first; every atom is in exactly one
 */
export function buildTurns(items: ReadonlyArray<Atom | TurnEndMarker>, rompUuid: string): Turn[] {
  const drafts: Draft[] = [];
  let current: Draft | undefined;
  let closed = true;
  let waiting: Atom[] = [];
  const open = (trigger: Atom | null, atoms: Atom[]): Draft => {
    const draft: Draft = {
      trigger,
      atoms,
      lastMessageId: undefined,
      stop: null,
      hasAssistant: false,
      lastBlockType: undefined,
      pending: new Set(),
      interrupted: false,
      endSeen: false,
    };
    drafts.push(draft);
    closed = false;
    return draft;
  };
  const settleWaiting = (): void => {
    if (waiting.length === 0) return;
    if (current === undefined) current = open(null, waiting);
    else for (const atom of waiting) current.atoms.push(atom);
    waiting = [];
  };

  for (const item of items) {
    if (item.type === 'turn_end') {
      if (current !== undefined) current.endSeen = true;
      closed = true;
      continue;
    }
    const atom = item as Atom;
    if (atom.type === 'user' && isOpenerAuthor(atom.author) && (closed || current === undefined || !holdsFloor(current))) {
      settleWaiting();
      current = open(atom, [atom]);
    } else if (closed && atom.type === 'assistant' && atom.message?.id !== current?.lastMessageId) {
      waiting.push(atom);
      current = open(null, waiting);
      waiting = [];
    } else if (closed || current === undefined) {
      waiting.push(atom);
      continue;
    } else {
      current.atoms.push(atom);
    }
    if (observe(current, atom)) closed = true;
  }
  settleWaiting();

  return drafts.map((draft, i) => finish(draft, i < drafts.length - 1, rompUuid));
}

/** Whether the model still holds the floor: it asked for a tool, or may have (stop unknown, tool pending). */
function holdsFloor(d: Draft): boolean {
  if (!d.hasAssistant || d.interrupted) return false;
  if (d.stop === null) return d.pending.size > 0;
  return CONTINUING.has(d.stop);
}

/** Updates the draft's state with an atom it took; returns true when the atom is a turn boundary. */
function observe(d: Draft, atom: Atom): boolean {
  const content: ContentBlock[] = atom.message?.content ?? [];
  if (atom.type === 'assistant') {
    const id = atom.message?.id;
    if (id === undefined || id !== d.lastMessageId) d.stop = null;
    d.lastMessageId = id;
    const stop = atom.message?.stop_reason;
    if (stop !== undefined && stop !== null) d.stop = stop;
    d.hasAssistant = true;
    for (const block of content) {
      if (block.type === 'tool_use' && typeof block['id'] === 'string') d.pending.add(block['id']);
      d.lastBlockType = block.type;
    }
    return d.stop !== null && !CONTINUING.has(d.stop);
  }
  if (atom.type !== 'user') return false;
  for (const block of content) {
    if (block.type === 'tool_result' && typeof block['tool_use_id'] === 'string') d.pending.delete(block['tool_use_id']);
    if (startsWithInterrupt(block)) d.interrupted = true;
  }
  return d.interrupted;
}

function startsWithInterrupt(block: ContentBlock): boolean {
  const text = (block as { text?: unknown; content?: unknown }).text ?? (block as { content?: unknown }).content;
  return typeof text === 'string' && text.trimStart().startsWith(INTERRUPT);
}

function finish(d: Draft, hasNext: boolean, rompUuid: string): Turn {
  const first = d.atoms[0] as Atom;
  const t = d.trigger?.t ?? first.t;
  let end = t;
  for (const atom of d.atoms) end = Math.max(end, atom.end ?? atom.t);
  return {
    id: turnId(rompUuid, t, (d.trigger ?? first).uuid),
    trigger: d.trigger === null ? null : { uuid: d.trigger.uuid },
    t,
    end,
    ended: ended(d, hasNext),
    atoms: d.atoms,
  };
}

function ended(d: Draft, hasNext: boolean): boolean {
  if (d.interrupted || d.endSeen) return true;
  if (d.stop !== null) return !CONTINUING.has(d.stop);
  if (!d.hasAssistant) return hasNext;
  return d.lastBlockType === 'text' && d.pending.size === 0 && hasNext;
}
