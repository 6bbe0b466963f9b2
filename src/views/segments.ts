import type { Atom, Session } from '../model/types.ts';
import { isOpenerAuthor } from '../tree/build-turns.ts';
import { decisions } from './decisions.ts';

/** A turn split at its inputs (seed, "Turn vs segment"): from one input to the next, or to the turn's end. */
export interface Segment {
  turnId: string;
  /** 0-based, within the turn. */
  index: number;
  /** uuid of the input atom that starts it; `null` for atoms before the turn's first input. */
  input: string | null;
  /** Start and end (epoch ms): the first atom's `t`, the latest `t` / idle `end` of its atoms. */
  t: number;
  end: number;
  atoms: Atom[];
}

/**
 * Segments of every turn (seed: "a turn split at its input atoms — a pure derivation, not stored").
 * Inputs are user atoms by human, sdk or a peer (the opener and mid-turn prompts) and decisions (the
 * result of AskUserQuestion / ExitPlanMode). A turn's segments partition its atoms, in order.
 * @param session the session
 * @returns the segments, turn by turn
 */
export function segments(session: Session): Segment[] {
  const decided = new Set(decisions(session).map((d) => d.uuid));
  const out: Segment[] = [];
  for (const turn of session.turns) {
    let current: Segment | undefined;
    for (const atom of turn.atoms) {
      const input = (atom.type === 'user' && isOpenerAuthor(atom.author)) || decided.has(atom.uuid);
      if (current === undefined || input) {
        current = {
          turnId: turn.id,
          index: current === undefined ? 0 : current.index + 1,
          input: input ? atom.uuid : null,
          t: atom.t,
          end: atom.end ?? atom.t,
          atoms: [],
        };
        out.push(current);
      }
      current.atoms.push(atom);
      current.end = Math.max(current.end, atom.end ?? atom.t);
    }
  }
  return out;
}
