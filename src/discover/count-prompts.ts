import type { RawRecord } from '../read/parse-line.ts';
import { LineDecoder } from '../read/line-decoder.ts';
import { parseRecord } from './parse-record.ts';
import { deriveAuthor } from '../tree/derive-author.ts';
import { normaliseMessage } from '../tree/normalise-message.ts';
import { typedText } from '../views/prompt-text.ts';

/** What `PromptCounter` learned from one pass over a transcript. */
export interface PromptCount {
  /** Lines in the file (a last line without `\n` counts). */
  lines: number;
  /** Prompts in the file, rewound ones included (see `PromptCounter`). */
  prompts: number;
  /** What was typed in the first of them (`typedText`); `""` when none. */
  firstPrompt: string;
  /** The `cwd` of the first prompt line that has one: the project's real folder; undefined when none. */
  cwd?: string;
  /** The `sessionId` of the file's first line, when it has one. */
  sessionId?: string;
}

/** Only lines holding `"type":"user"` or `"type": "user"` can be a `user` line (compact or spaced JSON): found as
 * `user"` after `"type":"` or `"type": "` (one search of the bytes, not one per form; `Buffer.indexOf` goes from one
 * place of a needle's first byte to the next, and a `u` is rarer than a `"`: 2.8 GB/s against 2.1 over the bench's
 * transcripts). */
const USER = Buffer.from('user"');
const TYPE = Buffer.from('"type":');

/**
 * The next `"type":"user"` (or `"type": "user"`) in a chunk, found once for all the chunk's lines: each
 * search starts where the line asking starts and its answer serves every line before it, so a chunk is
 * scanned once however many lines it holds (a search per line would rescan the rest of the chunk).
 */
class NextUser {
  #buf: Buffer | undefined;
  #at = -1;
  /** Forget the chunk (its buffer is about to hold other bytes). */
  reset(): void {
    this.#buf = undefined;
  }
  /** Whether a `user` type is in `buf[start, end)` (lines are asked for in order). */
  within(buf: Buffer, start: number, end: number): boolean {
    if (buf !== this.#buf || (this.#at !== -1 && this.#at < start)) {
      this.#buf = buf;
      this.#at = nextUser(buf, start);
    }
    // `"type":` and `"user"` hold no newline: a match starting in the line ends in it
    return this.#at !== -1 && this.#at < end;
  }
}

/** Where the next `"type":"user"` or `"type": "user"` starts in `buf` from `from`, or -1. */
function nextUser(buf: Buffer, from: number): number {
  for (let at = buf.indexOf(USER, from + TYPE.length + 1); at !== -1; at = buf.indexOf(USER, at + 1)) {
    if (buf[at - 1] !== 0x22) continue;
    const spaced = buf[at - 2] === 0x20 ? 1 : 0;
    const key = at - 1 - spaced - TYPE.length;
    if (key >= from && buf.compare(TYPE, 0, TYPE.length, key, key + TYPE.length) === 0) return key;
  }
  return -1;
}

/**
 * Lines holding `"tool_use_id"`, or `:true` after one of {@link NOT_PROMPT_FLAGS}, are never a prompt: a tool result
 * (the key occurs as bytes only as JSON, never inside a string, where the quotes are escaped), a subagent's line,
 * harness lines.
 */
const TOOL_USE_ID = Buffer.from('"tool_use_id"');
/**
 * The tail of `"tool_use_id"` searched for: a `_` is rarer in a line than a `"`, so `Buffer.indexOf` skips further
 * (the search of a prompt line's bytes, which never hold one, was 9.6 of `romp ls`'s 236 ms CPU over 3,000 sessions).
 */
const USE_ID_AT = '"tool'.length;
const USE_ID = TOOL_USE_ID.subarray(USE_ID_AT);

/** Whether a line holds `"tool_use_id"`: each `_use_id"` found, the `"tool` before it compared. */
function holdsToolUseId(line: Buffer): boolean {
  for (let at = line.indexOf(USE_ID, USE_ID_AT); at !== -1; at = line.indexOf(USE_ID, at + 1))
    if (line.compare(TOOL_USE_ID, 0, USE_ID_AT, at - USE_ID_AT, at) === 0) return true;
  return false;
}
const TRUE = Buffer.from(':true');
const NOT_PROMPT_FLAGS = ['"isSidechain"', '"isMeta"', '"isCompactSummary"'].map((s) => Buffer.from(s));

/**
 * Whether a line holds one of {@link NOT_PROMPT_FLAGS} followed by `:true`: one search for `:true` (a `:` is rare, so
 * `Buffer.indexOf` runs at 4.9 GB/s here), each one's key compared, not a search per flag (2.5–2.9 GB/s each).
 */
function flagged(line: Buffer): boolean {
  for (let at = line.indexOf(TRUE); at !== -1; at = line.indexOf(TRUE, at + 1)) {
    for (const flag of NOT_PROMPT_FLAGS)
      if (at >= flag.length && line.compare(flag, 0, flag.length, at - flag.length, at) === 0) return true;
  }
  return false;
}

/**
 * Counts the prompts of a transcript in one pass over its bytes, fed part after part by the caller, who reads
 * the file (`fileListing` reads it once for all: `readWholeSync`), parsing only candidate lines: the
 * lines whose bytes name a `user` line and none of a tool result, a sidechain, `isMeta` or
 * `isCompactSummary`. A candidate counts when its author is a person or an SDK host (`deriveAuthor`:
 * `human` or `sdk`, so not task notifications, command output, interrupts) and something was typed
 * (`typedText` not empty). Lines of rewound branches count too: this is what the file holds, not the
 * active path (`romp show` counts turns). The pre-filter reads each byte a bounded number of times.
 * `done()` gives lines, prompts, the first prompt, the project's cwd, the first line's sessionId.
 */
export class PromptCounter {
  readonly #found: PromptCount = { lines: 0, prompts: 0, firstPrompt: '' };
  readonly #users = new NextUser();
  readonly #decoder = new LineDecoder(
    (buf, start, end, line) => this.#line(buf, start, end, line),
    () => undefined,
  );

  /** The file's next bytes (not kept: the caller may reuse the buffer). */
  push(bytes: Buffer): void {
    this.#users.reset();
    this.#decoder.push(bytes);
  }

  /** The count, once every byte was pushed (a last line without a newline counted). */
  done(): PromptCount {
    this.#decoder.flush();
    this.#found.lines = this.#decoder.lineCount;
    return this.#found;
  }

  #line(buf: Buffer, start: number, end: number, line: number): void {
    const found = this.#found;
    if (line === 1) {
      const id = parseRecord(buf.toString('utf8', start, end))?.['sessionId'];
      if (typeof id === 'string') found.sessionId = id;
    }
    if (!this.#users.within(buf, start, end)) return;
    const bytes = buf.subarray(start, end);
    if (holdsToolUseId(bytes) || flagged(bytes)) return;
    const record = parseRecord(buf.toString('utf8', start, end));
    const typed = record === undefined ? '' : promptOf(record);
    if (typed === '' || record === undefined) return;
    found.prompts++;
    if (found.prompts === 1) found.firstPrompt = typed;
    if (found.cwd === undefined && typeof record['cwd'] === 'string') found.cwd = record['cwd'];
  }
}

/** What was typed in a user line of a person or an SDK host; `""` for any other line. */
export function promptOf(record: RawRecord): string {
  if (record['type'] !== 'user' || record['isSidechain'] === true) return '';
  const message = normaliseMessage('user', record['message']);
  const author = deriveAuthor(record, message.content, () => null, 'human');
  if (author !== 'human' && author !== 'sdk') return '';
  return typedText({ message });
}
