import { formatDiagnostic, type Diagnostic } from '../diagnostics/diagnostic.ts';
import type { Author, Session, Turn } from '../model/types.ts';
import { summarizeTurn } from '../views/summarize-turn.ts';

/**
 * The readable outline of `romp show`: a header, one block per turn (start time, author of the
 * trigger, how it ended (`turnOutcome`), atom count, tools used, tokens, a preview of what was typed
 * (`promptText`)), then the diagnostics. Times are printed in UTC ISO form.
 *
 * Each turn's line is its `summarizeTurn`: tokens count each API response once (`countAtomUsage`):
 * `in` is input + cache-creation + cache-read tokens, `out` output tokens.
 *
 * @param session the parsed session
 * @param diagnostics the parse's diagnostics
 * @returns the outline, ending with a newline
 */
export function formatOutline(session: Session, diagnostics: Diagnostic[]): string {
  const atoms = session.turns.reduce((n, t) => n + t.atoms.length, 0);
  const lines = [
    `${session.name || '(untitled)'}  ${session.rompUuid}`,
    session.files.length > 0
      ? `dir ${session.dir || '-'}  files ${session.files.map((f) => f.fsid).join(', ')}  leaf ${session.leafFsid}`
      : `dir ${session.dir || '-'}  (stream)`,
    `${session.turns.length} turns, ${atoms} atoms, ${session.records.length} other records`,
    '',
  ];
  session.turns.forEach((turn, i) => lines.push(...formatTurn(turn, i + 1)));
  for (const [toolUseId, atoms] of Object.entries(session.subagents ?? {})) {
    lines.push(`subagent of ${toolUseId}: ${atoms.length} atoms`);
  }
  if (diagnostics.length > 0) {
    lines.push(`${diagnostics.length} diagnostics:`);
    for (const d of diagnostics) lines.push(`  ${formatDiagnostic(d)}`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * One turn's block of the outline: a head line, a preview of what was typed, compactions.
 * @param turn the turn
 * @param n its 1-based number in the session
 * @returns the lines, without newlines
 */
export function formatTurn(turn: Turn, n: number): string[] {
  const summary = summarizeTurn(turn, n);
  const { usage } = summary;
  const tools = Object.entries(summary.tools).map(([name, count]) => (count > 1 ? `${name}×${count}` : name)).join(', ');
  const head = [
    `#${n}`,
    Number.isNaN(new Date(turn.t).getTime()) ? String(turn.t) : new Date(turn.t).toISOString().replace('T', ' ').slice(0, 19),
    summary.trigger === null ? 'autonomous' : authorLabel(summary.author ?? undefined),
    summary.outcome,
    `${summary.atoms} atoms`,
    `tokens in ${usage.input_tokens + usage.cache_creation_input_tokens + usage.cache_read_input_tokens} out ${usage.output_tokens}`,
  ];
  if (tools !== '') head.push(`tools ${tools}`);
  const lines = [head.join('  ')];
  const preview = summary.prompt.replace(/\s+/g, ' ');
  if (preview !== '') lines.push(`    ${JSON.stringify(preview.length > 100 ? `${preview.slice(0, 100)}…` : preview)}`);
  const compactions = turn.atoms.filter((a) => a.subtype === 'compact_boundary').length;
  if (compactions > 0) lines.push(`    compacted ${compactions}×`);
  return lines;
}

function authorLabel(author: Author | undefined): string {
  if (author === undefined) return 'tool';
  return typeof author === 'string' ? author : `peer ${author.peer ?? '(unknown)'}`;
}
