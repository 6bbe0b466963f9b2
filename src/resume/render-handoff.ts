import type { Session } from '../model/types.ts';
import { literal } from '../export/render-markdown-transcript.ts';
import { promptText } from '../views/prompt-text.ts';
import { toolCalls } from '../views/tool-calls.ts';
import { turnOutcome } from '../views/turn-outcome.ts';
import type { CauseNote, ResumeReport } from './find-lost-turns.ts';
import { plural } from '../text/format-count.ts';

/** Tools whose `file_path` (or `notebook_path`) input names a file they change. */
const EDITORS: ReadonlySet<string> = new Set(['Edit', 'MultiEdit', 'Write', 'NotebookEdit']);

/**
 * The Markdown to paste into a resumed session so it knows what the resume dropped
 * (`romp resume-check --handoff FILE`): per cause, where it is; then each lost turn's prompt as typed
 * (`promptText`) in a code fence, and how it ended (`turnOutcome`); the files the lost turns edited
 * (`Edit`, `MultiEdit`, `Write`, `NotebookEdit` calls, in first-edit order); and the last `TodoWrite`
 * list among them. Pure; text from the transcript is fenced, never interpreted.
 * @param session the `full` view
 * @param report what `findLostTurns` reported
 * @param notes its cause notes
 * @param time how a time (epoch ms) is written: the CLI's `isoTime` in `--timezone`, `time unknown` for none
 * @returns the Markdown
 */
export function renderHandoff(
  session: Session,
  report: ResumeReport,
  notes: readonly CauseNote[],
  time: (t: number) => string,
): string {
  const lost = new Set(report.lost.map((l) => l.turn_id));
  const turns = session.turns.filter((t) => lost.has(t.id));
  const out = [
    `# What the resumed session does not hold`,
    '',
    `${turns.length} of ${plural(report.full_turns, 'turn')} of session ${report.session} are not loaded by \`claude --resume\`.`,
    '',
  ];
  for (const n of notes)
    out.push(`- **${n.cause}** at ${literal(`${n.file}:${n.line} (${n.uuid}, ${time(n.t)}): ${n.note}`, 'inline')}`);
  if (notes.length > 0) out.push('');
  out.push('## Lost turns', '');
  if (turns.length === 0) out.push('none', '');
  turns.forEach((turn, i) => {
    const prompt = promptText(turn);
    out.push(
      `### ${i + 1}. ${turnOutcome(turn)}, ${time(turn.t)}`,
      '',
      prompt === '' ? '(no prompt: the turn went on from the one before)' : literal(prompt, 'fence'),
      '',
    );
  });
  const calls = toolCalls({ ...session, turns });
  const edited = [
    ...new Set(
      calls
        .filter((c) => EDITORS.has(c.name))
        .map((c) => editedPath(c.input))
        .filter((p): p is string => p !== undefined),
    ),
  ];
  out.push(
    '## Files edited in them',
    '',
    ...(edited.length === 0 ? ['none'] : edited.map((p) => `- \`${p.replace(/`/g, "'").replace(/\s/g, ' ')}\``)),
    '',
  );
  const todo = calls.findLast((c) => c.name === 'TodoWrite');
  const todos = (todo?.input as { todos?: unknown } | undefined)?.todos;
  out.push('## Last todo list', '');
  if (!Array.isArray(todos)) out.push('none');
  else for (const item of todos) out.push(todoLine(item));
  return `${out.join('\n')}\n`;
}

function editedPath(input: unknown): string | undefined {
  const i = input as { file_path?: unknown; notebook_path?: unknown } | null;
  const p = i?.file_path ?? i?.notebook_path;
  return typeof p === 'string' ? p : undefined;
}

function todoLine(item: unknown): string {
  const { content, status } = (item ?? {}) as { content?: unknown; status?: unknown };
  const box = status === 'completed' ? '[x]' : '[ ]';
  const state = typeof status === 'string' && status !== 'completed' && status !== 'pending' ? ` (${status})` : '';
  return `- ${box} ${typeof content === 'string' ? literal(content, 'inline') : ''}${literal(state, 'inline')}`;
}
