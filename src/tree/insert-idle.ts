import type { Atom, Session, Turn } from '../model/types.ts';

/** A contiguous idle span of one Claude session (epoch ms); `end` is `undefined` while still idle. */
export interface IdleSpan {
  sid: string;
  t: number;
  end: number | undefined;
}

/**
 * Puts idle spans into a session as `idle` atoms (seed, "Synthesize idle atoms"): each span goes into
 * the turn whose `[t, next turn's t)` holds its start, after the atoms stamped no later than it; a span
 * before the first turn goes to `session.idle`. An open span ends at `now`. Pure: returns a new session.
 *
 * Idle atoms are generated: uuid `idle:<sid>:<t>`, no fsid.
 * @param session the session
 * @param spans idle spans of its files
 * @param now the current time (epoch ms), injected
 * @returns the session with idle atoms
 */
export function insertIdle(session: Session, spans: IdleSpan[], now: number): Session {
  if (spans.length === 0) return session;
  // only the turns that take a span are copied: a live session re-applies its spans after every update
  const turns = [...session.turns];
  const copied = new Set<number>();
  const before: Atom[] = [...(session.idle ?? [])];
  for (const span of [...spans].sort((a, b) => a.t - b.t)) {
    const atom: Atom = {
      type: 'idle',
      uuid: `idle:${span.sid}:${span.t}`,
      session_id: session.rompUuid,
      t: span.t,
      end: span.end ?? now,
    };
    const index = turns.findLastIndex((x) => x.t <= span.t);
    if (index === -1) {
      before.push(atom);
      continue;
    }
    if (!copied.has(index)) {
      const original = turns[index] as Turn;
      turns[index] = { ...original, atoms: [...original.atoms] };
      copied.add(index);
    }
    const turn = turns[index] as Turn;
    let at = turn.atoms.length;
    while (at > 0 && (turn.atoms[at - 1]?.t ?? 0) > span.t) at--;
    turn.atoms.splice(at, 0, atom);
    turn.end = Math.max(turn.end, atom.end ?? atom.t);
  }
  return before.length > 0 ? { ...session, turns, idle: before } : { ...session, turns };
}
