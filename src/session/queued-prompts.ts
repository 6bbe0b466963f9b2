import type { Entry } from '../graph/entry.ts';
import { HARNESS_TEXT } from '../tree/harness-text.ts';
import { buildIndex, type GraphIndex } from '../graph/build-index.ts';
import { EntrySet } from '../graph/entry-set.ts';
import { holdShape } from '../model/hold-shape.ts';
import type { Atom } from '../model/types.ts';
import { toolResultText } from '../model/tool-result-text.ts';
import { normaliseMessage } from '../tree/normalise-message.ts';
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

/** A queued prompt: its `enqueue`, its text for matching, and the `seq` of what took it (`Infinity`: still waiting). */
interface Waiting {
  op: QueueOperation;
  text: string | undefined;
  takenAt: number;
}

/**
 * The queue replay's state just before one line (`QueueReplay.at`), all a replay begun at that line needs of the lines
 * before it (`BuilderBase.queue`): the prompts still waiting there, and the keys of the prompts generated before it (a
 * copy of one of their `enqueue`s generates nothing).
 */
export interface QueueBase {
  /** The `enqueue`s still waiting, in order; a `t` of `null` is none (`NaN` through JSON). */
  waiting: Array<Omit<QueueOperation, 't'> & { t: number | null }>;
  seen: string[];
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
 * @param seen the keys of prompts generated before the first line (`QueueBase.seen`), for a replay begun mid-file
 * @returns the generated atoms with the line each follows, in order, and whether they are sealed
 */
export function queuedPrompts(
  queue: QueueOperation[],
  entries: Entry[],
  index: GraphIndex,
  onPath: EntrySet,
  rompUuid: string,
  seen: readonly string[] = [],
): QueuedPrompts & { replay: QueueReplay } {
  const replay = new QueueReplay(index, onPath, rompUuid, seen);
  replay.feed(queue, entries);
  return { prompts: replay.prompts(0), sealed: replay.sealed, replay };
}

/**
 * One generated prompt: its atom, the shared place it follows, whether its own line stands for it, the `seq` of its
 * `remove` and of the response that answered its request (`Infinity`: none yet).
 */
interface Generated {
  atom: Atom;
  place: { after: Entry };
  dropped: boolean;
  seq: number;
  answeredAt: number;
}

/**
 * The replay of `queuedPrompts`, resumable: the live builder feeds it the lines and queue operations
 * appended, in the session's order, and reads the prompts generated since a point.
 */
export class QueueReplay {
  readonly #index: GraphIndex;
  readonly #onPath: EntrySet;
  readonly #rompUuid: string;
  readonly #waiting = new PromptQueue<Waiting>(isNotification);
  // each prompt follows a shared place, so moving on past a response moves all its prompts in one step
  readonly #out: Generated[] = [];
  readonly #places: Array<{ after: Entry }> = [];
  readonly #byText = new Map<string, number[]>(); // positions in `out`, by the prompt's text
  // a copy of the same enqueue (another file of the session) is one prompt: the seq of the remove that generated it
  readonly #seen = new Map<string, number>();
  readonly #enqueued: Waiting[] = []; // every enqueue replayed, in order (for `at`)
  #latest: Entry | undefined;
  #open = 0; // out[open…]: prompts whose request has not been answered yet (a queued_command line may stand for them)

  /**
   * @param index the graph index (which copy of a line is the one kept)
   * @param onPath the active path's lines
   * @param rompUuid the session's identity
   * @param seen the keys of prompts generated before the first line fed (`QueueBase.seen`)
   */
  constructor(index: GraphIndex, onPath: EntrySet, rompUuid: string, seen: readonly string[] = []) {
    this.#index = index;
    this.#onPath = onPath;
    this.#rompUuid = rompUuid;
    for (const key of seen) this.#seen.set(key, -Infinity);
  }

  /** Prompts generated so far (dropped ones included). */
  get count(): number {
    return this.#out.length;
  }

  /** Every generated prompt's request has been answered (see `QueuedPrompts.sealed`). */
  get sealed(): boolean {
    return this.#open === this.#out.length;
  }

  /**
   * The generated prompts from position `from` on that no line stands for, with the line each follows now.
   * @param from a `count` read earlier
   * @returns them, in order
   */
  prompts(from: number): QueuedPrompt[] {
    return this.#out
      .slice(from)
      .filter((q) => !q.dropped)
      .map((q) => ({ atom: q.atom, after: q.place.after }));
  }

  /**
   * The replay's state just before the line at `seq` (`QueueBase`), for a replay begun there that is to generate what
   * this one generates from there on; `undefined` when a prompt generated before it was not answered before it (a line
   * after could still stand for that prompt).
   * @param seq the line's `Entry.seq`, fed earlier
   * @returns the state, or `undefined`
   */
  at(seq: number): QueueBase | undefined {
    const out = this.#out;
    let last = out.length - 1;
    while (last >= 0 && (out[last] as Generated).seq > seq) last--;
    if (last >= 0 && (out[last] as Generated).answeredAt >= seq) return undefined;
    return {
      waiting: this.#enqueued.filter((w) => w.op.seq < seq && w.takenAt >= seq).map((w) => w.op),
      seen: [...this.#seen].filter(([, at]) => at < seq).map(([key]) => key),
    };
  }

  /**
   * Replays queue operations and lines together in the session's order (`seq`): each operation before
   * the first line after it.
   * @param queue queue operations, in order
   * @param entries uuid-bearing lines, in order, indexed
   */
  feed(queue: QueueOperation[], entries: Entry[]): void {
    let next = 0;
    for (const line of entries) {
      if (line.isSidechain || line.type === 'progress') continue;
      for (; next < queue.length && (queue[next] as QueueOperation).seq < line.seq; next++)
        this.#replay(queue[next] as QueueOperation);
      this.#line(line);
    }
    for (; next < queue.length; next++) this.#replay(queue[next] as QueueOperation);
  }

  #replay(op: QueueOperation): void {
    const waiting = this.#waiting;
    const latest = this.#latest;
    if (op.operation === 'enqueue') {
      const entry = { op, text: promptText(op.content), takenAt: Infinity };
      waiting.push(entry);
      this.#enqueued.push(entry);
    } else if (op.operation === 'popAll') for (const entry of waiting.clear()) entry.takenAt = op.seq;
    else if (op.operation === 'dequeue' || op.operation === 'popOne' || op.operation === 'remove') {
      const content = promptText(op.content);
      const taken = (content === undefined ? undefined : waiting.takeText(content)) ?? waiting.takeOldest();
      if (taken !== undefined) taken.takenAt = op.seq;
      if (op.operation !== 'remove' || taken === undefined || op.reason !== undefined || isSlashCommand(taken.text))
        return;
      if (latest === undefined || !this.#onPath.has(latest) || !versionBefore(latest.record['version'], 2, 1, 112))
        return;
      const key = `${taken.op.t}\u0000${taken.text ?? ''}`;
      if (this.#seen.has(key)) return;
      this.#seen.set(key, op.seq);
      const atom = generated(taken, op, latest, this.#rompUuid);
      const places = this.#places;
      if (places.at(-1)?.after !== latest) places.push({ after: latest });
      const text = promptText(atom.message?.content);
      if (text !== undefined) {
        const same = this.#byText.get(text);
        if (same === undefined) this.#byText.set(text, [this.#out.length]);
        else same.push(this.#out.length);
      }
      this.#out.push({
        atom,
        place: places.at(-1) as { after: Entry },
        dropped: false,
        seq: op.seq,
        answeredAt: Infinity,
      });
    }
  }

  #line(line: Entry): void {
    const index = this.#index;
    const out = this.#out;
    const places = this.#places;
    const latest = this.#latest;
    const e = line.pos >= 0 && index.ordered[line.pos] === line ? line : (index.byUuid.get(line.uuid) ?? line);
    const continues = latest !== undefined && continuesResponse(e, latest);
    if (continues && this.#onPath.has(e)) {
      for (let i = places.length - 1; i >= 0 && (places[i] as { after: Entry }).after === latest; i--)
        (places[i] as { after: Entry }).after = e;
    }
    if (e.type === 'assistant' && !continues) {
      // the next request was answered
      for (let i = this.#open; i < out.length; i++) (out[i] as Generated).answeredAt = line.seq;
      this.#open = out.length;
    }
    if (e.type === 'user') {
      const text = promptText((e.record['message'] as { content?: unknown } | undefined)?.content);
      const taken = text === undefined ? undefined : this.#waiting.takeText(text);
      if (taken !== undefined) taken.takenAt = line.seq;
    } else if (e.type === 'attachment' && out.length > this.#open) {
      const attachment = e.record['attachment'] as { type?: unknown; prompt?: unknown } | undefined;
      const text = attachment?.type === 'queued_command' ? promptText(attachment.prompt) : undefined;
      const same = text === undefined ? undefined : this.#byText.get(text);
      const at = same?.at(-1) ?? -1;
      if (at >= this.#open) {
        (out[at] as Generated).dropped = true; // the prompt's own line stands for it
        same?.pop();
      }
    }
    this.#latest = e;
  }
}

holdShape(new QueueReplay(buildIndex([], ignore), new EntrySet(), ''));

function ignore(): void {}

/** Whether a line is a later line of the response before it (its tool results follow in path order:
 * `buildSessionState`). */
function continuesResponse(e: Entry, latest: Entry): boolean {
  return (
    e.type === 'assistant' &&
    latest.type === 'assistant' &&
    e.messageId !== undefined &&
    e.messageId === latest.messageId
  );
}

function generated(taken: Waiting, op: QueueOperation, latest: Entry, rompUuid: string): Atom {
  const blocks = normaliseMessage('user', { role: 'user', content: taken.op.content }).content;
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

/** The text of a prompt's content (`toolResultText`: a string, or its text blocks joined, an image as `[image]`);
 * `undefined` without text. */
function promptText(content: unknown): string | undefined {
  const text = toolResultText(content);
  return text === '' ? undefined : text;
}

function isNotification(text: string | undefined): boolean {
  return text?.trimStart().startsWith(HARNESS_TEXT.taskNotification) === true;
}

/** `/name` or `/name args`: Claude Code runs it as a slash command (an absolute path, `/a/b`, is not one). */
function isSlashCommand(text: string | undefined): boolean {
  return text !== undefined && /^\/[A-Za-z][\w:-]*(?:\s|$)/.test(text.trimStart());
}
