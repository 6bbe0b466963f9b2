import { knownBlocks } from '../model/known-blocks.ts';
import type { Atom, Author, ContentBlock, Session, Turn } from '../model/types.ts';
import { toolResultText } from '../model/tool-result-text.ts';
import { typedText } from '../views/prompt-text.ts';
import { summarizeTurn } from '../views/summarize-turn.ts';
import { toolLabel } from '../views/tool-label.ts';
import { subagentSession } from '../views/subagent-session.ts';
import { formatDuration, formatResult } from './format-result.ts';
import { formatCost } from './format-cost.ts';
import { formatCount, plural } from '../text/format-count.ts';
import { safeText } from './safe-text.ts';
import { fitWidth, wrapWords } from './fit-width.ts';

/** A subagent as shown under the call that started it. */
export interface SubagentNote {
  turns: number;
  cost_usd: number;
  /** Its transcript's file name. */
  file: string;
}

/** Options of {@link formatConversation}. */
export interface ConversationOptions {
  /** Columns to wrap to. */
  width: number;
  /** SGR colours (a terminal that wants them: not `NO_COLOR`, not `--no-color`). */
  color: boolean;
  /** How a time is printed, and the zone it is in. */
  time: (t: number) => string;
  zone: string;
  /** Subagents by the `tool_use_id` of their `Task` / `Agent` call. */
  subagents?: ReadonlyMap<string, SubagentNote>;
  /** The one turn to show (1-based), the header kept; all when undefined. */
  only?: number;
}

type Style = 'bold' | 'dim' | 'red' | 'green' | 'yellow' | 'cyan' | 'magenta';
const SGR: Record<Style, string> = {
  bold: '1',
  dim: '2',
  red: '31',
  green: '32',
  yellow: '33',
  cyan: '36',
  magenta: '35',
};

/** The outcomes a person should notice, and how they are coloured. */
const OUTCOME_STYLE: ReadonlyMap<string, Style> = new Map<string, Style>([
  ['completed', 'green'],
  ['interrupted', 'yellow'],
  ['rejected', 'yellow'],
  ['blocked', 'red'],
  ['max_tokens', 'red'],
  ['api_error', 'red'],
  ['open', 'cyan'],
]);

/** The fewest columns the conversation is laid out in: a narrower terminal wraps what is wider. */
const MIN_WIDTH = 20;

/**
 * The conversation as a person reads it (`romp show --full`): a header, then each turn as a head line
 * (number, time, who opened it, how it ended, duration, tokens, cost) and its atoms in order: the
 * prompt as typed (`❯`, with its author when not a human), Claude's text (`●`) wrapped to the width,
 * each tool call on one line with its key input (`⏺ Bash: npm test`, `toolLabel`) and under it a short
 * result or the error, thinking as one line, a subagent under its call with its turn count and cost (an inline
 * sidechain of Claude Code ≤ 2.0.27 with its own turns, indented; those tied to no call after the last turn,
 * labelled so),
 * compactions and idle spans as markers, Claude Code's own notes (`⚙`: interrupts, hook messages,
 * task notifications) dimmed.
 *
 * Every text from the transcript goes through `safeText`, so the colour codes this function adds are
 * the only control sequences in its output. Pure.
 *
 * @param session the session
 * @param options width, colour, time format, subagents
 * @returns the text, lines ending with `\n`
 */
export function formatConversation(session: Session, options: ConversationOptions): string {
  const paint = painter(options);
  const out: string[] = [];
  const rewound = session.records.filter(
    (r) => r.onPath === false && r.isSidechain !== true && (r.type === 'user' || r.type === 'assistant'),
  ).length;
  out.push(paint('bold', `${safeText(session.name || '(untitled)')}  ${safeText(session.rompUuid)}`));
  out.push(
    paint(
      'dim',
      `${safeText(session.dir || '-')} · ${plural(session.turns.length, 'turn')} · times in ${options.zone}${rewound > 0 ? ` · ${plural(rewound, 'line')} on rewound branches (not shown)` : ''}`,
    ),
  );
  session.turns.forEach((turn, i) => {
    if (options.only !== undefined && options.only !== i + 1) return;
    out.push('');
    out.push(...formatTurnBlock(session, turn, i + 1, options, paint));
  });
  for (const { tool_use_id, atoms } of options.only === undefined ? (session.sidechains ?? []) : []) {
    if (tool_use_id !== null) continue;
    out.push('');
    out.push(...subagentLines(session, atoms, 'inline sidechain not tied to a Task call', options, paint));
  }
  return `${out.join('\n')}\n`;
}

/** Paints a line (a head, a tool call, a note) as one line: cut to the width before its colour is added. */
function painter(options: ConversationOptions): (style: Style, text: string) => string {
  return (style, text) => {
    const line = fitWidth(text, Math.max(MIN_WIDTH, options.width));
    return options.color ? `\u001b[${SGR[style]}m${line}\u001b[0m` : line;
  };
}

function formatTurnBlock(
  session: Session,
  turn: Turn,
  n: number,
  options: ConversationOptions,
  paint: (style: Style, text: string) => string,
): string[] {
  const summary = summarizeTurn(turn, n);
  const tokens =
    summary.usage.input_tokens + summary.usage.cache_creation_input_tokens + summary.usage.cache_read_input_tokens;
  const head = [
    `#${n}`,
    options.time(turn.t),
    summary.trigger === null ? 'autonomous' : authorLabel(summary.author),
    paint(OUTCOME_STYLE.get(summary.outcome) ?? 'dim', summary.outcome),
    formatDuration(summary.duration_ms),
    `${formatCount(tokens)} in / ${summary.usage.lowerBound ? '≥' : ''}${formatCount(summary.usage.output_tokens)} out`,
    formatCost({ ...summary.usage, cost_usd: summary.cost_usd }),
  ];
  const lines = [paint('bold', head.join('  '))];
  const results = new Map<string, { text: string; is_error: boolean }>();
  for (const atom of turn.atoms) {
    for (const block of blocksOf(atom)) {
      if (block.type === 'tool_result')
        results.set(block.tool_use_id, { text: toolResultText(block.content), is_error: block.is_error === true });
    }
  }
  const width = Math.max(MIN_WIDTH, options.width);
  for (const atom of turn.atoms) {
    if (atom.type === 'idle') lines.push(paint('dim', `  … idle ${formatDuration((atom.end ?? atom.t) - atom.t)}`));
    else if (atom.subtype === 'compact_boundary') {
      const m = atom.compact_metadata;
      lines.push(
        paint(
          'magenta',
          `  ── compacted${m === undefined ? '' : ` (${m.trigger}, ${formatCount(m.pre_tokens)} tokens before)`} ──`,
        ),
      );
    } else if (atom.type === 'user') lines.push(...userLines(atom, turn, width, paint));
    else if (atom.type === 'assistant') lines.push(...assistantLines(session, atom, results, width, options, paint));
    else if (atom.type === 'result' && atom.result !== undefined) {
      lines.push(paint('dim', `  ⚑ ${formatResult(atom.result)}`));
    }
  }
  return lines;
}

function userLines(atom: Atom, turn: Turn, width: number, paint: (style: Style, text: string) => string): string[] {
  const text = typedText(atom);
  if (text === '') return []; // tool results only: shown under their calls
  if (atom.author === 'system' || atom.author === undefined)
    return [paint('dim', `  ⚙ ${safeText(firstLine(text), {})}`)];
  const who = atom.author === 'human' ? '' : `${authorLabel(atom.author)}: `;
  const mid = turn.trigger?.uuid === atom.uuid ? '' : ' (while Claude worked)';
  const [first = '', ...rest] = wrapWords(`${who}${text}${mid}`, width - 2);
  return [paint('bold', `❯ ${first}`), ...rest.map((l) => `  ${l}`)];
}

function assistantLines(
  session: Session,
  atom: Atom,
  results: ReadonlyMap<string, { text: string; is_error: boolean }>,
  width: number,
  options: ConversationOptions,
  paint: (style: Style, text: string) => string,
): string[] {
  const lines: string[] = [];
  for (const block of blocksOf(atom)) {
    if (block.type === 'text') {
      const text = block.text;
      if (text.trim() === '') continue;
      const [first = '', ...rest] = wrapWords(text, width - 2);
      lines.push(`● ${first}`, ...rest.map((l) => `  ${l}`));
    } else if (block.type === 'thinking' || block.type === 'redacted_thinking') {
      const size = block.type === 'thinking' ? block.thinking.length : 0;
      lines.push(
        paint(
          'dim',
          size > 0 ? `  ✻ thinking · ${plural(size, 'char')}` : '  ✻ thinking (signature only: the text was not kept)',
        ),
      );
    } else if (block.type === 'tool_use') {
      lines.push(paint('cyan', `  ⏺ ${clip(safeText(toolLabel(block.name, block.input)), width - 4)}`));
      const id = block.id;
      const result = results.get(id);
      if (result === undefined) lines.push(paint('dim', '    ⎿ no result'));
      else if (result.is_error) lines.push(paint('red', `    ⎿ ${clip(safeText(errorLine(result.text)), width - 6)}`));
      else lines.push(paint('dim', `    ⎿ ${clip(safeText(resultLine(result.text)), width - 6)}`));
      const agent = options.subagents?.get(id);
      if (agent !== undefined)
        lines.push(
          paint(
            'magenta',
            `    ↳ subagent ${safeText(agent.file)}: ${plural(agent.turns, 'turn')}, $${agent.cost_usd.toFixed(2)}`,
          ),
        );
      const inline = session.sidechains?.find((s) => s.tool_use_id === id);
      if (inline !== undefined) lines.push(...subagentLines(session, inline.atoms, 'subagent', options, paint));
    }
  }
  if (atom.isApiErrorMessage === true && lines.length === 0) lines.push(paint('red', '  ⚠ API error'));
  return lines;
}

/**
 * An inline sidechain (`Session.sidechains`): a head line (what it is, its
 * turns, atoms and cost), then its turns as the session's are shown, indented by four columns.
 */
function subagentLines(
  parent: Session,
  atoms: readonly Atom[],
  label: string,
  options: ConversationOptions,
  paint: (style: Style, text: string) => string,
): string[] {
  const sub = subagentSession(parent, atoms);
  const cost = sub.turns.reduce((n, t, i) => n + summarizeTurn(t, i + 1).cost_usd, 0);
  const inner = { ...options, width: options.width - 4 };
  const head = `    ↳ ${label}: ${plural(sub.turns.length, 'turn')}, ${plural(atoms.length, 'atom')}, $${cost.toFixed(2)}`;
  const body = sub.turns.flatMap((t, i) => formatTurnBlock(sub, t, i + 1, inner, painter(inner)));
  return [paint('magenta', head), ...body.map((l) => `    ${l}`)];
}

function blocksOf(atom: Atom): ContentBlock[] {
  return knownBlocks(atom.message?.content);
}

function authorLabel(author: Author | null | undefined): string {
  if (author === null || author === undefined) return 'tool';
  return typeof author === 'string' ? author : `peer ${safeText(author.peer ?? '(unknown)')}`;
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0] ?? '';
}

/** A tool's output in one line: its first non-empty line and how many more there are. */
function resultLine(text: string): string {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  if (lines.length === 0) return '(no output)';
  const more = lines.length > 2 ? `  (+${lines.length - 1} lines)` : lines.length === 2 ? '  (+1 line)' : '';
  return `${(lines[0] ?? '').trim()}${more}`;
}

/** An error result in one line; a call the user refused says so. */
function errorLine(text: string): string {
  if (text.includes("The user doesn't want to proceed with this tool use")) return 'rejected by the user';
  return `error: ${firstLine(text) || '(no text)'}`;
}

function clip(text: string, width: number): string {
  return text.length > width ? `${text.slice(0, Math.max(1, width - 1))}…` : text;
}
