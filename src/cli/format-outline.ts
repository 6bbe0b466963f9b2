import { formatDiagnostic, type Diagnostic } from '../diagnostics/diagnostic.ts';
import type { Atom, Author, Session, Turn } from '../model/types.ts';
import { isKnownTime } from '../model/time.ts';
import { tokenCount } from '../usage/token-count.ts';

/**
 * The readable outline of `romp show`: a header, one block per turn (start time, author of the
 * trigger, ended or not, atom count, tools used, tokens, a preview of the trigger's text), then the
 * diagnostics. Times are printed in UTC ISO form.
 *
 * Tokens count each API response once (its last line's `usage`, per `message.id`): `in` is input +
 * cache-creation + cache-read tokens, `out` output tokens.
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

/** What the printers say for a time no line gave (`isKnownTime`), instead of 1970-01-01 or `0 ms`. */
export const TIME_UNKNOWN = 'time unknown';

/**
 * A time as an ISO string, or `time unknown`.
 * @param t epoch ms, `UNKNOWN_TIME` when unknown
 * @returns the text
 */
export function formatTime(t: number): string {
  return isKnownTime(t) ? new Date(t).toISOString() : TIME_UNKNOWN;
}

/**
 * One turn's block of the outline: a head line, the trigger's text preview, compactions.
 * @param turn the turn
 * @param n its 1-based number in the session
 * @returns the lines, without newlines
 */
export function formatTurn(turn: Turn, n: number): string[] {
  const trigger = turn.trigger === null ? undefined : turn.atoms.find((a) => a.uuid === turn.trigger?.uuid);
  const { input, output } = tokensOf(turn.atoms);
  const tools = toolsOf(turn.atoms);
  const head = [
    `#${n}`,
    isKnownTime(turn.t) ? new Date(turn.t).toISOString().replace('T', ' ').slice(0, 19) : TIME_UNKNOWN,
    trigger === undefined ? 'autonomous' : authorLabel(trigger.author),
    turn.ended ? 'ended' : 'open',
    `${turn.atoms.length} atoms`,
    `tokens in ${input} out ${output}`,
  ];
  if (tools !== '') head.push(`tools ${tools}`);
  const lines = [head.join('  ')];
  const preview = trigger === undefined ? undefined : textOf(trigger);
  if (preview !== undefined) lines.push(`    ${JSON.stringify(preview.length > 100 ? `${preview.slice(0, 100)}…` : preview)}`);
  const compactions = turn.atoms.filter((a) => a.subtype === 'compact_boundary').length;
  if (compactions > 0) lines.push(`    compacted ${compactions}×`);
  return lines;
}

function authorLabel(author: Author | undefined): string {
  if (author === undefined) return 'tool';
  return typeof author === 'string' ? author : `peer ${author.peer ?? '(unknown)'}`;
}

function textOf(atom: Atom): string | undefined {
  for (const block of atom.message?.content ?? []) {
    const text = (block as { text?: unknown }).text;
    if (block.type === 'text' && typeof text === 'string') return text.replace(/\s+/g, ' ').trim();
  }
  return undefined;
}

function tokensOf(atoms: Atom[]): { input: number; output: number } {
  const last = new Map<string, Atom>();
  for (const atom of atoms) if (atom.type === 'assistant') last.set(atom.message?.id ?? atom.uuid, atom);
  let input = 0;
  let output = 0;
  for (const atom of last.values()) {
    const usage: unknown = atom.message?.usage;
    if (typeof usage !== 'object' || usage === null) continue;
    const count = (key: string): number => tokenCount((usage as Record<string, unknown>)[key]) ?? 0;
    input += count('input_tokens') + count('cache_creation_input_tokens') + count('cache_read_input_tokens');
    output += count('output_tokens');
  }
  return { input, output };
}

function toolsOf(atoms: Atom[]): string {
  const counts = new Map<string, number>();
  for (const atom of atoms) {
    if (atom.type !== 'assistant') continue;
    for (const block of atom.message?.content ?? []) {
      const name = (block as { name?: unknown }).name;
      if (block.type === 'tool_use' && typeof name === 'string') counts.set(name, (counts.get(name) ?? 0) + 1);
    }
  }
  return [...counts].map(([name, count]) => (count > 1 ? `${name}×${count}` : name)).join(', ');
}
