import type { Session } from '../model/types.ts';
import { isOpenerAuthor } from '../tree/build-turns.ts';

/** Where a user input sits (seed, "Position labels … derive position; do not store these"). */
export interface Position {
  uuid: string;
  turnId: string;
  position: 'opener' | 'mid-turn';
  /**
   * `typed`: an opener typed while idle; `queued`: an opener typed while the previous turn ran, taken
   * off the queue (`promptSource: "queued"`, 2.1.200+); `absorbed`: a prompt taken into the running turn.
   */
  label: 'typed' | 'queued' | 'absorbed';
}

/**
 * The position of every user input (human, sdk or peer atoms): `opener` when it is its turn's trigger,
 * else `mid-turn` (absorbed). Openers are `queued` when Claude Code says so (`promptSource`), else
 * `typed`; transcripts older than 2.1.200 carry no such mark, so their openers read as `typed`.
 * @param session the session
 * @returns the positions, in atom order
 */
export function positions(session: Session): Position[] {
  const out: Position[] = [];
  for (const turn of session.turns) {
    for (const atom of turn.atoms) {
      if (atom.type !== 'user' || !isOpenerAuthor(atom.author)) continue;
      const opener = turn.trigger?.uuid === atom.uuid;
      out.push({
        uuid: atom.uuid,
        turnId: turn.id,
        position: opener ? 'opener' : 'mid-turn',
        label: !opener ? 'absorbed' : atom.promptSource === 'queued' ? 'queued' : 'typed',
      });
    }
  }
  return out;
}
