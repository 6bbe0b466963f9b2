import type { Entry } from '../graph/entry.ts';
import type { GraphIndex } from '../graph/build-index.ts';
import type { EntrySet } from '../graph/entry-set.ts';
import type { Atom, ContentBlock } from '../model/types.ts';
import { versionBefore } from '../read/claude-version.ts';
import type { QueueOperation } from './collect-files.ts';
import { PromptQueue } from './prompt-queue.ts';

/** A generated atom and the active-path line it follows. */
export interface QueuedPrompt {
  atom: Atom;
  after: Entry;
}

/** The generated prompts of a session, and whether lines appended later can still move or drop one. */
export interface QueuedPrompts {
  prompts: QueuedPrompt[];
  /**
   * Every generated prompt's request has been answered (a new response followed it): a line appended
   * after can neither move one on (it no longer continues the line a prompt follows) nor stand for one.
   */
  sealed: boolean;
}

/** A queued prompt still waiting: its `enqueue`, and its text for matching. */
interface Waiting {
  op: QueueOperation;
  text: string | undefined;
}

/**
 * Prompts typed while Claude was busy that exist on disk only as `queue-operation` records
 * (known-failures F14, transcript-format §12): builds before 2.1.112 (public ones up to at least 2.1.96)
 * did not write the `queued_command` attachment of a prompt absorbed into the running turn, only
 * `enqueue` (with its content) … `remove`. Each such prompt becomes a generated user atom, uuid
 * `queued:<fsid>:<line of the enqueue>`, by `human` (a `<task-notification>` by `system`), at the time of
 * its `remove`, placed after the last main-chain line written before the `remove`, moved on past the rest
 * of that line's response (and, by `buildSessionState`, the tool results after it in path order): the
 * prompt went to the model with the next request.
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
 *   starts) and that line is from before 2.1.112; a `queued_command` attachment with its text written
 *   before the next response stands for it instead.
 * Content may be a string, an array of blocks (kept as they are) or absent (an empty content). A line
 * written again (a copy in another file, a uuid written twice) counts as the line the index keeps, and a
 * copy of an `enqueue` (same time, same text) as the same prompt.
 *
 * @param queue the session's queue operations, in the session's order
 * @param entries the session's uuid-bearing lines, in the session's order
 * @param index the graph index (which copy of a line is the one kept)
 * @param onPath the active path's lines
 * @param rompUuid the session's identity
 * @returns the generated atoms with the line each follows, in order, and whether they are sealed
 */
export function queuedPrompts(queue: QueueOperation[], entries: Entry[], index: GraphIndex, onPath: EntrySet, rompUuid: string): QueuedPrompts {
  const waiting = new PromptQueue<Waiting>(isNotification);
  // each prompt follows a shared place, so moving on past a response moves all its prompts in one step
  const out: Array<{ atom: Atom; place: { after: Entry }; dropped: boolean }> = [];
  const places: Array<{ after: Entry }> = [];
  const byText = new Map<string, number[]>(); // positions in `out`, by the prompt's text
  const seen = new Set<string>(); // a copy of the same enqueue (another file of the session) is one prompt
  let latest: Entry | undefined;
  let open = 0; // out[open…]: prompts whose request has not been answered yet (a queued_command line may stand for them)
  const replay = (op: QueueOperation): void => {
    if (op.operation === 'enqueue') waiting.push({ op, text: promptText(op.content) });
    else if (op.operation === 'popAll') waiting.clear();
    else if (op.operation === 'dequeue' || op.operation === 'popOne' || op.operation === 'remove') {
      const content = promptText(op.content);
      const taken = (content === undefined ? undefined : waiting.takeText(content)) ?? waiting.takeOldest();
      if (op.operation !== 'remove' || taken === undefined || op.reason !== undefined || isSlashCommand(taken.text)) return;
      if (latest === undefined || !onPath.has(latest) || !versionBefore(latest.record['version'], 2, 1, 112)) return;
      const key = `${taken.op.t}\u0000${taken.text ?? ''}`;
      if (seen.has(key)) return;
      seen.add(key);
      const atom = generated(taken, op, latest, rompUuid);
      if (places.at(-1)?.after !== latest) places.push({ after: latest });
      const text = promptText(atom.message?.content);
      if (text !== undefined) {
        const same = byText.get(text);
        if (same === undefined) byText.set(text, [out.length]);
        else same.push(out.length);
      }
      out.push({ atom, place: places.at(-1) as { after: Entry }, dropped: false });
    }
  };
  let next = 0;
  for (const line of entries) {
    if (line.isSidechain || line.type === 'progress') continue;
    const e = line.pos >= 0 && index.ordered[line.pos] === line ? line : (index.byUuid.get(line.uuid) ?? line);
    for (; next < queue.length && (queue[next] as QueueOperation).seq < line.seq; next++) replay(queue[next] as QueueOperation);
    const continues = latest !== undefined && continuesResponse(e, latest);
    if (continues && onPath.has(e)) {
      for (let i = places.length - 1; i >= 0 && (places[i] as { after: Entry }).after === latest; i--) (places[i] as { after: Entry }).after = e;
    }
    if (e.type === 'assistant' && !continues) open = out.length; // the next request was answered
    if (e.type === 'user') {
      const text = promptText((e.record['message'] as { content?: unknown } | undefined)?.content);
      if (text !== undefined) waiting.takeText(text);
    } else if (e.type === 'attachment' && out.length > open) {
      const attachment = e.record['attachment'] as { type?: unknown; prompt?: unknown } | undefined;
      const text = attachment?.type === 'queued_command' ? promptText(attachment.prompt) : undefined;
      const same = text === undefined ? undefined : byText.get(text);
      const at = same?.at(-1) ?? -1;
      if (at >= open) {
        (out[at] as { dropped: boolean }).dropped = true; // the prompt's own line stands for it
        same?.pop();
      }
    }
    latest = e;
  }
  for (; next < queue.length; next++) replay(queue[next] as QueueOperation);
  return { prompts: out.filter((q) => !q.dropped).map((q) => ({ atom: q.atom, after: q.place.after })), sealed: open === out.length };
}

/** Whether a line is a later line of the response before it (its tool results follow in path order: `buildSessionState`). */
function continuesResponse(e: Entry, latest: Entry): boolean {
  return e.type === 'assistant' && latest.type === 'assistant' && e.messageId !== undefined && e.messageId === latest.messageId;
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
