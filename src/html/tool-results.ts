import { isKnownBlock } from '../model/is-known-block.ts';
import type { Atom, Session, ToolResultBlock } from '../model/types.ts';

/** A `tool_result` block with the user atom that carries it. */
export interface ToolResult {
  block: ToolResultBlock;
  atom: Atom;
  /** Whether it is the first result its atom carries (the one that takes the atom's uuid as anchor). */
  first: boolean;
}

/**
 * The first `tool_result` of each `tool_use_id` on the session's active path (a Map: ids are
 * transcript data), so a page shows each result inside its call.
 * @param session the session
 * @returns results by tool_use_id
 */
export function toolResults(session: Session): Map<string, ToolResult> {
  const results = new Map<string, ToolResult>();
  for (const turn of session.turns) {
    for (const atom of turn.atoms) {
      if (atom.type !== 'user') continue;
      let first = true;
      for (const b of atom.message.content) {
        if (!isKnownBlock(b) || b.type !== 'tool_result' || results.has(b.tool_use_id)) continue;
        results.set(b.tool_use_id, { block: b, atom, first });
        first = false;
      }
    }
  }
  return results;
}
