import type { Atom, Session } from '../model/types.ts';
import { buildTurns } from '../tree/build-turns.ts';

/**
 * A subagent's atoms (`Session.subagents`: a stream's lanes; `Session.sidechains`: a file's inline ones) as a
 * Session of its own, for the views that show a subagent transcript under its call: the parent's identity, folder and
 * files, the atoms grouped into turns by the same rule (`buildTurns`, on `stop_reason`), no records. Memoised per atom
 * list (the lists are never changed once the session is made). Pure.
 * @param parent the session the subagent belongs to
 * @param atoms its atoms, in order
 * @returns the subagent's session
 */
export function subagentSession(parent: Session, atoms: readonly Atom[]): Session {
  let session = made.get(atoms);
  if (session === undefined) {
    const { rompUuid, name, dir, color, leafFsid, files } = parent;
    session = { rompUuid, name, dir, color, leafFsid, files, turns: buildTurns(atoms, rompUuid), records: [] };
    made.set(atoms, session);
  }
  return session;
}

const made = new WeakMap<readonly Atom[], Session>();
