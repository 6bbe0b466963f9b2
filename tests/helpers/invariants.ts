import assert from 'node:assert/strict';
import type { Session } from '../../src/model/types.ts';
import type { ReadResult } from '../../src/read/read-transcript.ts';
import { HARNESS_TEXT, startsWithHarness } from '../../src/tree/harness-text.ts';

/**
 * The model's invariants: every atom in exactly one turn, turn ids unique, each trigger inside its
 * turn (first, except in the first turn and after a local command's caveat), atoms with a time, plain JSON; with
 * `timeOrdered`, turns in
 * time order.
 */
export function checkInvariants(session: Session, where: string, timeOrdered = true): void {
  const seen = new Set<string>();
  const ids = new Set<string>();
  let previous = Number.NEGATIVE_INFINITY;
  session.turns.forEach((turn, index) => {
    assert.ok(turn.atoms.length > 0, `${where}: empty turn`);
    if (timeOrdered) assert.ok(turn.t >= previous, `${where}: turns out of time order`);
    previous = turn.t;
    assert.ok(!ids.has(turn.id), `${where}: turn id twice`);
    ids.add(turn.id);
    const trigger = turn.trigger;
    if (trigger !== null) {
      assert.ok(
        turn.atoms.some((a) => a.uuid === trigger.uuid),
        `${where}: trigger not in its turn`,
      );
      // a local command's caveat, written before the command, goes ahead of it
      const first = turn.atoms[0];
      if (index > 0 && !startsWithHarness(first?.message?.content, HARNESS_TEXT.caveat))
        assert.equal(first?.uuid, trigger.uuid, `${where}: trigger is not the first atom`);
    }
    for (const atom of turn.atoms) {
      assert.ok(!seen.has(atom.uuid), `${where}: atom ${atom.uuid} twice`);
      seen.add(atom.uuid);
      assert.equal(typeof atom.t, 'number', `${where}: atom without time`);
    }
  });
  assert.deepEqual(JSON.parse(JSON.stringify(session)), session, `${where}: not plain JSON`);
}

/** Every line of the file is a record or a diagnostic, and atoms + record references = records read. */
export function checkLossless(read: ReadResult, session: Session, where: string): void {
  const covered = new Set<number>();
  for (const r of read.records) covered.add(r.line);
  for (const d of read.diagnostics) if (d.line !== undefined) covered.add(d.line);
  for (let line = 1; line <= read.lines; line++)
    assert.ok(covered.has(line), `${where}:${line} neither record nor diagnostic`);
  // generated atoms (prompts known only from queue operations) stand for no line of their own
  const atoms = session.turns.reduce((n, t) => n + t.atoms.filter((a) => !a.uuid.startsWith('queued:')).length, 0);
  assert.equal(atoms + session.records.length, read.records.length, `${where}: records lost or doubled`);
}
