import { parseSession } from '../../src/session/parse-session.ts';
import type { ParseOptions, ParseResult } from '../../src/session/parse-session.ts';
import type { Atom } from '../../src/model/types.ts';
import { writeJsonl } from './transcript.ts';

/** Writes the lines to a temp file and parses it. */
export async function parseLines(
  lines: Array<Record<string, unknown> | string>,
  options: ParseOptions = {},
): Promise<ParseResult> {
  return parseSession([writeJsonl(lines)], options);
}

/** Every atom of the session, in order. */
export function atomsOf(result: ParseResult): Atom[] {
  return result.session.turns.flatMap((t) => t.atoms);
}

/** The uuids of every atom, in order. */
export function uuidsOf(result: ParseResult): string[] {
  return atomsOf(result).map((a) => a.uuid);
}

/** The diagnostic codes, in order. */
export function codesOf(result: ParseResult): string[] {
  return result.diagnostics.map((d) => d.code);
}
