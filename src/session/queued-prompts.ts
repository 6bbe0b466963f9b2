import { hasToolResult, type Entry } from '../graph/entry.ts';
import type { EntrySet } from '../graph/entry-set.ts';
import type { Atom, ContentBlock } from '../model/types.ts';
import type { QueueOperation } from './collect-files.ts';

/** A generated atom and the active-path line it follows (the last before its `remove`, or a tool result just after). */
export interface QueuedPrompt {
  atom: Atom;
  after: Entry;
}

/** A queued prompt still waiting: its `enqueue`, and its text for matching. */
interface Waiting {
  op: QueueOperation;
  text: string | undefined;
}

/**
 * Prompts typed while Claude was busy that exist on disk only as `queue-operation` records
 * (known-failures F14, transcript-format §12): public builds up to at least 2.1.96 did not write the
 * `queued_command` attachment of a prompt absorbed into the running turn, only `enqueue` (with its
 * content) … `remove`. Each such prompt becomes a generated user atom, uuid
 * `queued:<fsid>:<line of the enqueue>`, by `human` (a `<task-notification>` by `system`), at the time of
 * its `remove`, placed after the last main-chain line written before the `remove` and the tool results
 * of the active path that directly follow it (the prompt went to the model with them).
 *
 * The queue and the lines are replayed together in the session's order (`seq`):
 * - `enqueue` adds; `popAll` empties (the prompts went back to the input box);
 * - a user line whose text is that of a waiting prompt takes it: it was delivered as that line (a task
 *   notification delivered at idle is written with no `dequeue`);
 * - `dequeue` and `popOne` take one, `remove` takes one: the one with the same content when the
 *   operation has content (2.1.200+), else the oldest prompt that is not a task notification (those wait
 *   for idle), else the oldest;
 * - a `remove` gives an atom only when its prompt was absorbed into the conversation shown: not dropped
 *   (a 2.1.332 `reason`), not a slash command (`/name …`: it runs as a command, its lines are its own),
 *   written while a line of the active path was the latest (not in a rewound turn, not before the view
 *   starts), and in a file that writes no attachments at all (one that does wrote the prompt's own
 *   `queued_command` line).
 * Content may be a string, an array of blocks (kept as they are) or absent (an empty content).
 *
 * @param queue the session's queue operations, in the session's order
 * @param entries the session's uuid-bearing lines, in the session's order
 * @param onPath the active path's lines
 * @param rompUuid the session's identity
 * @returns the generated atoms with the line each follows, in order
 */
export function queuedPrompts(queue: QueueOperation[], entries: Entry[], onPath: EntrySet, rompUuid: string): QueuedPrompt[] {
  const attachments = new Set<string>();
  for (const e of entries) if (e.type === 'attachment') attachments.add(e.fsid);
  const waiting: Waiting[] = [];
  const out: QueuedPrompt[] = [];
  let latest: Entry | undefined;
  const replay = (op: QueueOperation): void => {
    if (op.operation === 'enqueue') waiting.push({ op, text: promptText(op.content) });
    else if (op.operation === 'popAll') waiting.length = 0;
    else if (op.operation === 'dequeue' || op.operation === 'popOne' || op.operation === 'remove') {
      const taken = take(waiting, promptText(op.content));
      if (op.operation !== 'remove' || taken === undefined || op.reason !== undefined || isSlashCommand(taken.text)) return;
      if (latest === undefined || !onPath.has(latest) || attachments.has(op.fsid)) return;
      out.push({ atom: generated(taken, op, latest, rompUuid), after: latest });
    }
  };
  let next = 0;
  for (const e of entries) {
    if (e.isSidechain || e.type === 'progress') continue;
    for (; next < queue.length && (queue[next] as QueueOperation).seq < e.seq; next++) replay(queue[next] as QueueOperation);
    // the prompt goes to the model with the next request: after the tool results written before it
    if (out.length > 0 && hasToolResult(e) && onPath.has(e)) {
      for (let i = out.length - 1; i >= 0 && (out[i] as QueuedPrompt).after === latest; i--) (out[i] as QueuedPrompt).after = e;
    }
    if (e.type === 'user') {
      const text = promptText((e.record['message'] as { content?: unknown } | undefined)?.content);
      const at = text === undefined ? -1 : waiting.findIndex((w) => w.text === text);
      if (at !== -1) waiting.splice(at, 1);
    }
    latest = e;
  }
  for (; next < queue.length; next++) replay(queue[next] as QueueOperation);
  return out;
}

/** The waiting prompt an operation takes: by content when it has some, else the oldest that is not a task notification, else the oldest. */
function take(waiting: Waiting[], content: string | undefined): Waiting | undefined {
  let at = content === undefined ? -1 : waiting.findIndex((w) => w.text === content);
  if (at === -1) at = waiting.findIndex((w) => !isNotification(w.text));
  if (at === -1) at = 0;
  return waiting.splice(at, 1)[0];
}

function generated(taken: Waiting, op: QueueOperation, latest: Entry, rompUuid: string): Atom {
  const content = taken.op.content;
  const blocks: ContentBlock[] = typeof content === 'string' ? [{ type: 'text', text: content }] : Array.isArray(content) ? (content as ContentBlock[]) : [];
  const t = [op.t, taken.op.t, latest.t].find((x) => !Number.isNaN(x)) ?? Number.NaN;
  return {
    type: 'user',
    uuid: `queued:${taken.op.fsid}:${taken.op.line}`,
    session_id: rompUuid,
    t,
    fsid: taken.op.fsid,
    message: { role: 'user', content: blocks },
    author: isNotification(taken.text) ? 'system' : 'human',
  };
}

/** The text of a prompt's content: a string, or the text blocks of an array joined; `undefined` without text. */
function promptText(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  const texts = content.flatMap((b) => (typeof b === 'object' && b !== null && (b as { type?: unknown }).type === 'text' ? [String((b as { text?: unknown }).text)] : []));
  return texts.length === 0 ? undefined : texts.join('\n');
}

function isNotification(text: string | undefined): boolean {
  return text?.trimStart().startsWith('<task-notification>') === true;
}

/** `/name` or `/name args`: Claude Code runs it as a slash command (an absolute path, `/a/b`, is not one). */
function isSlashCommand(text: string | undefined): boolean {
  return text !== undefined && /^\/[A-Za-z][\w:-]*(?:\s|$)/.test(text.trimStart());
}
