import type { RawRecord } from '../read/parse-line.ts';
import { LineDecoder } from '../read/line-decoder.ts';
import { openRegular } from '../read/open-regular.ts';
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
 * @param path the transcript
 * @returns lines, prompts, the first prompt, the project's cwd, the first line's sessionId
 * @throws NotRegularFile, or the system error when the file cannot be opened or read
 */
export async function countPrompts(path: string): Promise<PromptCount> {
  const { handle } = await openRegular(path);
  const found: PromptCount = { lines: 0, prompts: 0, firstPrompt: '' };
  const decoder = new LineDecoder(
    (buf, start, end, line) => {
      if (line === 1) {
        const id = parseRecord(buf.toString('utf8', start, end))?.['sessionId'];
        if (typeof id === 'string') found.sessionId = id;
      }
      const bytes = buf.subarray(start, end);
      const has = (needle: Buffer): boolean => bytes.indexOf(needle) !== -1;
      if (!USER.some(has) || NOT_PROMPT.some(has)) return;
      const record = parseRecord(buf.toString('utf8', start, end));
      const typed = record === undefined ? '' : promptOf(record);
      if (typed === '' || record === undefined) return;
      found.prompts++;
      if (found.prompts === 1) found.firstPrompt = typed;
      if (found.cwd === undefined && typeof record['cwd'] === 'string') found.cwd = record['cwd'];
    },
    () => undefined,
  );
  try {
    const chunk = Buffer.alloc(1024 * 1024);
    for (;;) {
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
      if (bytesRead === 0) break;
      decoder.push(chunk.subarray(0, bytesRead));
    }
    decoder.flush();
  } finally {
    await handle.close();
  }
  found.lines = decoder.lineCount;
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
