import type { RawRecord } from '../read/parse-line.ts';
import { LineDecoder } from '../read/line-decoder.ts';
import { withRegular, type OpenedFile } from '../read/with-regular.ts';
import { parseRecord } from './parse-record.ts';
import { deriveAuthor } from '../tree/derive-author.ts';
import { normaliseMessage } from '../tree/normalise-message.ts';
import { typedText } from '../views/prompt-text.ts';

/** What `countPrompts` learned from one pass over a transcript. */
export interface PromptCount {
  /** Lines in the file (a last line without `\n` counts). */
  lines: number;
  /** Prompts in the file, rewound ones included (see `countPrompts`). */
  prompts: number;
  /** What was typed in the first of them (`typedText`); `""` when none. */
  firstPrompt: string;
  /** The `cwd` of the first prompt line that has one: the project's real folder; undefined when none. */
  cwd?: string;
  /** The `sessionId` of the file's first line, when it has one. */
  sessionId?: string;
}

/** Only lines holding one of these bytes can be a `user` line (compact or spaced JSON). */
const USER = [Buffer.from('"type":"user"'), Buffer.from('"type": "user"')];

/** Bytes read at a time. */
const CHUNK = 256 * 1024;
/** Read buffers no reader is using: a file takes one and gives it back (a fresh buffer per file costs its allocation
 * and its collection). */
const spare: Buffer[] = [];

/**
 * The next place of a needle in a chunk, found once for all the chunk's lines: each search starts where
 * the line asking starts and its answer serves every line before it, so a chunk is scanned once per
 * needle however many lines it holds (a search per line would rescan the rest of the chunk).
 */
class NextMatch {
  readonly #needle: Buffer;
  #buf: Buffer | undefined;
  #at = -1;
  constructor(needle: Buffer) {
    this.#needle = needle;
  }
  /** Forget the chunk (its buffer is about to hold other bytes). */
  reset(): void {
    this.#buf = undefined;
  }
  /** Whether the needle is in `buf[start, end)` (lines are asked for in order). */
  within(buf: Buffer, start: number, end: number): boolean {
    if (buf !== this.#buf || (this.#at !== -1 && this.#at < start)) {
      this.#buf = buf;
      this.#at = buf.indexOf(this.#needle, start);
    }
    // a needle holds no newline: one starting in the line ends in it
    return this.#at !== -1 && this.#at < end;
  }
}
/**
 * Lines holding one of these are never a prompt: a tool result (the key occurs as bytes only as JSON,
 * never inside a string, where the quotes are escaped), a subagent's line, harness lines.
 */
const NOT_PROMPT = ['"tool_use_id"', '"isSidechain":true', '"isMeta":true', '"isCompactSummary":true'].map((s) =>
  Buffer.from(s),
);

/**
 * Counts the prompts of a transcript in one pass over its bytes, parsing only candidate lines: the
 * lines whose bytes name a `user` line and none of a tool result, a sidechain, `isMeta` or
 * `isCompactSummary`. A candidate counts when its author is a person or an SDK host (`deriveAuthor`:
 * `human` or `sdk`, so not task notifications, command output, interrupts) and something was typed
 * (`typedText` not empty). Lines of rewound branches count too: this is what the file holds, not the
 * active path (`romp show` counts turns). The pre-filter reads each byte a bounded number of times.
 * With `from`, only the bytes from `from.position` on are read, continuing `from.count` (what this gave for the
 * bytes before it, which end with a `\n`): the count of bytes appended since.
 * @param path the transcript, or the caller's open file (`withRegular`)
 * @param from where to start and what was counted before it (default: the start, nothing)
 * @returns lines, prompts, the first prompt, the project's cwd, the first line's sessionId
 * @throws NotRegularFile, or the system error when the file cannot be opened or read
 */
export async function countPrompts(
  path: string | OpenedFile,
  from: { position: number; count: PromptCount } = { position: 0, count: { lines: 0, prompts: 0, firstPrompt: '' } },
): Promise<PromptCount> {
  return withRegular(path, ({ handle }) => count(handle, from.position, { ...from.count }));
}

async function count(handle: OpenedFile['handle'], start: number, found: PromptCount): Promise<PromptCount> {
  const before = found.lines;
  const users = USER.map((needle) => new NextMatch(needle));
  const decoder = new LineDecoder(
    (buf, start, end, line) => {
      if (line === 1 && before === 0) {
        const id = parseRecord(buf.toString('utf8', start, end))?.['sessionId'];
        if (typeof id === 'string') found.sessionId = id;
      }
      if (!users.some((u) => u.within(buf, start, end))) return;
      const bytes = buf.subarray(start, end);
      if (NOT_PROMPT.some((needle) => bytes.indexOf(needle) !== -1)) return;
      const record = parseRecord(buf.toString('utf8', start, end));
      const typed = record === undefined ? '' : promptOf(record);
      if (typed === '' || record === undefined) return;
      found.prompts++;
      if (found.prompts === 1) found.firstPrompt = typed;
      if (found.cwd === undefined && typeof record['cwd'] === 'string') found.cwd = record['cwd'];
    },
    () => undefined,
  );
  const chunk = spare.pop() ?? Buffer.allocUnsafe(CHUNK);
  try {
    for (let position = start; ;) {
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, position);
      if (bytesRead === 0) break;
      position += bytesRead;
      for (const u of users) u.reset();
      // the decoder copies what it holds of a line across chunks: the buffer is free again after push
      decoder.push(bytesRead === chunk.length ? chunk : chunk.subarray(0, bytesRead));
    }
    decoder.flush();
  } finally {
    spare.push(chunk);
  }
  found.lines = before + decoder.lineCount;
  return found;
}

/** What was typed in a user line of a person or an SDK host; `""` for any other line. */
export function promptOf(record: RawRecord): string {
  if (record['type'] !== 'user' || record['isSidechain'] === true) return '';
  const message = normaliseMessage('user', record['message']);
  const author = deriveAuthor(record, message.content, () => null, 'human');
  if (author !== 'human' && author !== 'sdk') return '';
  return typedText({ message });
}
