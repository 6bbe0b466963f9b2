import type { Session } from '../model/types.ts';
import { isOpenerAuthor } from '../tree/build-turns.ts';

/** Where a user input sits (seed, "Position labels … derive position; do not store these"). */
export interface Position {
  uuid: string;
  turnId: string;
  position: 'opener' | 'mid-turn';
  /**
   * `typed`: an opener typed while idle; `queued`: an opener typed while the previous turn ran, taken
   * off the queue; `absorbed`: a prompt taken into the running turn.
   */
  label: 'typed' | 'queued' | 'absorbed';
}

/**
 * The position of every user input (human, sdk or peer atoms): `opener` when it is its turn's trigger,
 * else `mid-turn` (absorbed). An opener is `queued` when Claude Code says so (`promptSource: "queued"`,
 * 2.1.200+) or when a `queue-operation` `dequeue` was written within the 5 s before it (2.0.30+: the
 * queued prompt taken off the queue as a new turn); else `typed`.
 * @param session the session
 * @returns the positions, in atom order
 */
export function positions(session: Session): Position[] {
  const dequeued = session.records
    .filter((r) => r.type === 'queue-operation' && r.subtype === 'dequeue' && r.t !== undefined)
    .map((r) => r.t as number);
  const fromQueue = (t: number): boolean => dequeued.some((d) => d <= t && t - d <= 5000);
  const out: Position[] = [];
  for (const turn of session.turns) {
    for (const atom of turn.atoms) {
      if (atom.type !== 'user' || !isOpenerAuthor(atom.author)) continue;
      const opener = turn.trigger?.uuid === atom.uuid;
      out.push({
        uuid: atom.uuid,
        turnId: turn.id,
        position: opener ? 'opener' : 'mid-turn',
        label: !opener ? 'absorbed' : atom.promptSource === 'queued' || fromQueue(atom.t) ? 'queued' : 'typed',
      });
    }
  }
  return out;
}
