/** A projects folder for `romp serve` tests, and the lines that grow its session. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { assistant, text, user } from '../helpers/transcript.ts';
import { tempDir } from '../helpers/temp-dir.ts';

/** The session id of the served fixture. */
export const ID = '7d1e0000-aaaa-4000-8000-000000000001';
/** A record as a line of the fixture session. */
export const line = (record: Record<string, unknown>): string => `${JSON.stringify({ ...record, sessionId: ID })}\n`;

/** A projects folder with one session of one turn; returns its folder and file. */
export function projectsWithSession(): { dir: string; file: string } {
  const dir = tempDir('romp-serve-');
  mkdirSync(join(dir, '-work-demo'));
  const file = join(dir, '-work-demo', `${ID}.jsonl`);
  writeFileSync(
    file,
    line(user('u1', null, 'first question', 0)) +
      line(assistant('a1', 'u1', text('First answer.'), 1, { mid: 'm1', stop: 'end_turn' })),
  );
  return { dir, file };
}

/** The lines of a second turn, to append. */
export const SECOND_TURN: string =
  line(user('u2', 'a1', 'second question', 10)) +
  line(assistant('a2', 'u2', text('Second answer.'), 11, { mid: 'm2', stop: 'end_turn' }));
