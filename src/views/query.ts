import { knownBlocks } from '../model/known-blocks.ts';
import { toolResultText } from '../model/tool-result-text.ts';
import type { Atom, Author, Session, Turn } from '../model/types.ts';

/** What to look for; every field given must match (and), none given matches everything. */
export interface AtomFilter {
  /** `human`, `sdk`, `system`, or `peer` (any peer). */
  author?: 'human' | 'sdk' | 'system' | 'peer';
  /** Atom kind: `user`, `assistant`, `system`, `result`, `idle`, or `system:compact_boundary`. */
  kind?: string;
  /** A `tool_use` of this tool name in the atom, or a `tool_result` answering one. */
  tool?: string;
  /** Only atoms with an error `tool_result` (`true`) or without one (`false`). */
  isError?: boolean;
  /** Time range, epoch ms, inclusive. */
  from?: number;
  to?: number;
  /** Case-insensitive text search over text, thinking and tool_result text. */
  text?: string;
}

/** A match: the atom, with the session and turn it belongs to. */
export interface AtomMatch {
  rompUuid: string;
  turnId: string;
  atom: Atom;
}

/**
 * Finds atoms across sessions (issue #5, "Query"); plain JSON out, in session, turn and atom order.
 * @param sessions the sessions to search
 * @param filter what to look for
 * @returns the matching atoms with their session and turn
 */
export function queryAtoms(sessions: Session[], filter: AtomFilter): AtomMatch[] {
  const out: AtomMatch[] = [];
  for (const session of sessions) {
    const toolOf = toolNames(session);
    for (const turn of session.turns)
      for (const atom of turn.atoms)
        if (matches(atom, filter, toolOf)) out.push({ rompUuid: session.rompUuid, turnId: turn.id, atom });
  }
  return out;
}

/**
 * The turns holding at least one matching atom.
 * @param sessions the sessions to search
 * @param filter what to look for
 * @returns the turns, with their session's rompUuid
 */
export function queryTurns(sessions: Session[], filter: AtomFilter): Array<{ rompUuid: string; turn: Turn }> {
  const ids = new Set(queryAtoms(sessions, filter).map((m) => m.turnId));
  return sessions.flatMap((s) => s.turns.filter((t) => ids.has(t.id)).map((turn) => ({ rompUuid: s.rompUuid, turn })));
}

function toolNames(session: Session): Map<string, string> {
  const names = new Map<string, string>();
  for (const turn of session.turns) {
    for (const atom of turn.atoms) {
      for (const block of knownBlocks(atom.message?.content))
        if (block.type === 'tool_use') names.set(block.id, block.name);
    }
  }
  return names;
}

function authorKind(author: Author | undefined): string | undefined {
  return typeof author === 'object' ? 'peer' : author;
}

function matches(atom: Atom, f: AtomFilter, toolOf: Map<string, string>): boolean {
  if (f.author !== undefined && authorKind(atom.author) !== f.author) return false;
  if (f.kind !== undefined && atom.type !== f.kind && `${atom.type}:${atom.subtype ?? ''}` !== f.kind) return false;
  if (f.from !== undefined && atom.t < f.from) return false;
  if (f.to !== undefined && atom.t > f.to) return false;
  const blocks = knownBlocks(atom.message?.content);
  if (
    f.tool !== undefined &&
    !blocks.some(
      (b) =>
        (b.type === 'tool_use' && b.name === f.tool) ||
        (b.type === 'tool_result' && typeof b.tool_use_id === 'string' && toolOf.get(b.tool_use_id) === f.tool),
    )
  )
    return false;
  if (f.isError !== undefined && blocks.some((b) => b.type === 'tool_result' && b.is_error === true) !== f.isError)
    return false;
  if (f.text !== undefined) {
    const needle = f.text.toLowerCase();
    const texts = blocks.flatMap((b) =>
      b.type === 'text'
        ? [b.text]
        : b.type === 'thinking'
          ? [b.thinking]
          : b.type === 'tool_result'
            ? [toolResultText(b.content)]
            : [],
    );
    if (!texts.some((t) => t.toLowerCase().includes(needle))) return false;
  }
  return true;
}
