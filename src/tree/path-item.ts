import type { Entry } from '../graph/entry.ts';
import type { Atom } from '../model/types.ts';
import type { RawRecord } from '../read/parse-line.ts';
import type { TurnEndMarker } from './build-turns.ts';
import { toAtom, type AtomContext } from './to-atom.ts';

/**
 * What an active-path line gives the turn builder: its atom (`toAtom`), a `TurnEndMarker` for a
 * `system` / `turn_duration` row (2.0.77+) or a `system` / `stop_hook_summary` row without
 * `hookErrors` (Stop hooks ran when the turn ended, and none sent Claude on), else nothing. A line that
 * gives no atom is kept as a record.
 * @param entry the line
 * @param ctx the session's rompUuid and postal lookup
 * @returns the atom, the marker, or `undefined`
 */
export function pathItem(entry: Entry, ctx: AtomContext): Atom | TurnEndMarker | undefined {
  const atom = toAtom(entry, ctx);
  if (atom !== undefined) return atom;
  if (entry.type !== 'system') return undefined;
  if (entry.subtype === 'turn_duration' || (entry.subtype === 'stop_hook_summary' && !hasHookErrors(entry.record)))
    return { type: 'turn_end', t: entry.t };
  return undefined;
}

/** A Stop hook that blocked writes its error here, and Claude goes on with the turn (transcript-format §14). */
function hasHookErrors(record: RawRecord): boolean {
  const errors = record['hookErrors'];
  return Array.isArray(errors) && errors.length > 0;
}

/**
 * Whether an atom is absorbed into the running turn whatever comes before it: a path line's
 * `queued_command` attachment (a prompt taken mid-turn, 2.1.112+); generated queued prompts are too.
 * @param entry the line the atom came from
 * @returns true for attachments
 */
export function absorbedLine(entry: Entry): boolean {
  return entry.type === 'attachment';
}
