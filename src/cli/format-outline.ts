import type { Atom, Author, Session, Turn } from '../model/types.ts';
import { subagentSession } from '../views/subagent-session.ts';
import { summarizeTurn } from '../views/summarize-turn.ts';
import { formatResult } from './format-result.ts';
import { timeFormat, type TimeFormat } from './format-time.ts';
import { formatCount, plural } from '../text/format-count.ts';
import { safeText } from './safe-text.ts';

/**
 * The readable outline of `romp show`: a header (title, id, folder, files, counts, the zone the times
 * are in, what the token counts mean), then one block per turn (`formatTurn`), then a line per subagent whose atoms
 * the session holds (`Session.subagents`: a stream's lanes; `sidechains`: inline ones, those tied to no call labelled
 * so) with its turns and atoms. Diagnostics are not
 * part of it: the CLI writes them to stderr.
 *
 * Each turn's line is its `summarizeTurn`: tokens count each API response once (`countAtomUsage`):
 * `in` is input + cache-write + cache-read tokens, `out` output tokens, `≥` marking a count written
 * before Claude Code 2.1.112 gave a response its final usage (a lower bound). Every transcript text
 * goes through `safeText`.
 *
 * @param session the parsed session
 * @param time how times are printed (`timeFormat`)
 * @param only the one turn to show (1-based), the header kept; all when undefined
 * @returns the outline, ending with a newline
 */
export function formatOutline(session: Session, time: TimeFormat, only?: number): string {
  const atoms = session.turns.reduce((n, t) => n + t.atoms.length, 0);
  const lines = [
    `${safeText(session.name || '(untitled)')}  ${safeText(session.rompUuid)}`,
    session.files.length > 0
      ? `dir ${safeText(session.dir || '-')}  files ${session.files.map((f) => safeText(f.fsid)).join(', ')}  leaf ${safeText(session.leafFsid)}`
      : `dir ${safeText(session.dir || '-')}  (stream)`,
    `${plural(session.turns.length, 'turn')}, ${plural(atoms, 'atom')}, ${plural(session.records.length, 'other record')}; times in ${time.zone}; tokens in = input + cache write + cache read, out = output (≥ a lower bound)`,
    '',
  ];
  session.turns.forEach((turn, i) => {
    if (only === undefined || only === i + 1) lines.push(...formatTurn(turn, i + 1, time));
  });
  const counts = (atoms: readonly Atom[]): string =>
    `${plural(subagentSession(session, atoms).turns.length, 'turn')}, ${plural(atoms.length, 'atom')}`;
  for (const [toolUseId, atoms] of Object.entries(session.subagents ?? {}))
    lines.push(`subagent of ${safeText(toolUseId)}: ${counts(atoms)}`);
  for (const { tool_use_id, atoms } of session.sidechains ?? [])
    lines.push(
      tool_use_id === null
        ? `inline sidechain not tied to a Task call, from ${safeText(atoms[0]?.uuid ?? '')}: ${counts(atoms)}`
        : `inline subagent of ${safeText(tool_use_id)}: ${counts(atoms)}`,
    );
  return `${lines.join('\n')}\n`;
}

/** A turn's outline parts: its head line, the preview of what was typed (`""` if none), its compactions. */
export interface TurnHead {
  head: string;
  preview: string;
  compactions: number;
}

/**
 * The parts of a turn's outline that `romp show` prints on two lines and `romp watch` on one: the head
 * (number, start time, opener, outcome, atoms, tokens, tools), the preview of what was typed
 * (`promptText`, quoted, cut at 100 characters) and how many compactions the turn holds. All text safe.
 * @param turn the turn
 * @param n its 1-based number in the session
 * @param time how times are printed
 * @returns the parts
 */
export function turnHead(turn: Turn, n: number, time: TimeFormat): TurnHead {
  const summary = summarizeTurn(turn, n);
  const { usage } = summary;
  const tools = Object.entries(summary.tools)
    .map(([name, count]) => safeText(count > 1 ? `${name}×${count}` : name))
    .join(', ');
  const head = [
    `#${n}`,
    time.format(turn.t),
    summary.trigger === null ? 'autonomous' : authorLabel(summary.author ?? undefined),
    summary.outcome,
    plural(summary.atoms, 'atom'),
    `tokens in ${formatCount(usage.input_tokens + usage.cache_creation_input_tokens + usage.cache_read_input_tokens)} out ${usage.lowerBound ? '≥' : ''}${formatCount(usage.output_tokens)}`,
  ];
  if (tools !== '') head.push(`tools ${tools}`);
  const text = summary.prompt.replace(/\s+/g, ' ');
  // quoted, `"` and `\` escaped, the rest as every printer shows it (`\x1b`, not JSON's `\u001b`)
  const cut = text.length > 100 ? `${text.slice(0, 100)}…` : text;
  const preview = text === '' ? '' : `"${safeText(cut.replace(/["\\]/g, '\\$&'))}"`;
  return {
    head: head.join('  '),
    preview,
    compactions: turn.atoms.filter((a) => a.subtype === 'compact_boundary').length,
  };
}

/**
 * One turn's block of the outline: its head line, a preview of what was typed (`turnHead`), compactions,
 * and a stream's `result` (`formatResult`: subtype, `num_turns`, duration, cost).
 * @param turn the turn
 * @param n its 1-based number in the session
 * @param time how times are printed (default: the machine's zone)
 * @returns the lines, without newlines
 */
export function formatTurn(turn: Turn, n: number, time: TimeFormat = timeFormat()): string[] {
  const { head, preview, compactions } = turnHead(turn, n, time);
  const lines = [head];
  if (preview !== '') lines.push(`    ${preview}`);
  if (compactions > 0) lines.push(`    compacted ${compactions}×`);
  for (const atom of turn.atoms) if (atom.result !== undefined) lines.push(`    ${formatResult(atom.result)}`);
  return lines;
}

function authorLabel(author: Author | undefined): string {
  if (author === undefined) return 'tool';
  return typeof author === 'string' ? author : `peer ${safeText(author.peer ?? '(unknown)')}`;
}
