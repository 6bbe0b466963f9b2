import { withRegular } from '../read/with-regular.ts';
import { utf16Encoding } from '../read/utf16-encoding.ts';
import { plural } from '../text/format-count.ts';

/** How much of a file's start tells whether it is a transcript: the complete lines of its first 64 KiB. */
export const TRANSCRIPT_HEAD_BYTES: number = 64 * 1024;

/** Raised by a reader that found a file not to be a transcript (`notTranscriptIn`); its message is the reason. */
export class NotTranscript extends Error {}

/**
 * Why a file is not a Claude Code transcript, judged from its head as `romp ls`, `romp index` and the commands given
 * transcript files (`checkTranscripts`) judge it: the file holds lines (blank ones are no sign) but none of the
 * complete lines of its first 64 KiB is a transcript line, a JSON object with a string `type` (a byte-order mark,
 * NULs and a UTF-16 encoding are read past, as the read stage reads them). A binary or a PNG renamed `x.jsonl` is not
 * a transcript; an empty file is (Claude Code creates a session's file a moment before its first line), as is one
 * whose first line is longer than 64 KiB (no complete line to judge).
 * @param head the file's first bytes (its first 64 KiB, or all of it when smaller)
 * @param size the file's size in bytes (the head's last line is complete only when the head is the whole file)
 * @param file the path named in the reason
 * @returns `not a Claude Code transcript (none of its first 3 lines is a transcript line; romp doctor FILE says why)`
 *   (`its one line is not` for one line), or `undefined` for a transcript
 */
export function notTranscriptIn(head: Uint8Array, size: number, file: string): string | undefined {
  let written = 0;
  for (const line of headLines(head.subarray(0, Math.min(head.length, TRANSCRIPT_HEAD_BYTES)), size)) {
    if (line.trim() === '') continue;
    // a transcript's first line decides (one line decoded and parsed of each file `romp ls` lists)
    if (isTranscriptLine(line)) return undefined;
    written++;
  }
  if (written === 0) return undefined;
  const which = written === 1 ? 'its one line is not' : `none of its first ${plural(written, 'line')} is`;
  return `not a Claude Code transcript (${which} a transcript line; romp doctor ${file} says why)`;
}

/** The complete lines of a file's head, decoded one at a time (a UTF-16 head at once); the last only when the head is
 * the whole file. */
function* headLines(bytes: Uint8Array, size: number): Generator<string> {
  const whole = bytes.length >= size;
  const encoding = utf16Encoding(bytes)?.encoding;
  if (encoding !== undefined) {
    const lines = new TextDecoder(encoding).decode(bytes).split('\n');
    if (!whole) lines.pop();
    yield* lines;
    return;
  }
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  for (let start = 0; start < buffer.length || (whole && start === 0);) {
    const end = buffer.indexOf(0x0a, start);
    if (end === -1 && !whole) return;
    yield buffer.toString('utf8', start, end === -1 ? buffer.length : end);
    if (end === -1) return;
    start = end + 1;
  }
}

/**
 * `notTranscriptIn` over a file's first 64 KiB, read here.
 * @param path the file
 * @returns the reason, or `undefined` for a transcript
 * @throws NotRegularFile, or the system error when it cannot be opened or read
 */
export async function notTranscript(path: string): Promise<string | undefined> {
  return withRegular(path, async ({ handle, info }) => {
    const head = Buffer.alloc(Math.min(info.size, TRANSCRIPT_HEAD_BYTES));
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    return notTranscriptIn(head.subarray(0, bytesRead), info.size, path);
  });
}

/** A JSON object with a string `type` (only a line naming `"type"` is parsed). */
function isTranscriptLine(line: string): boolean {
  if (!line.includes('"type"')) return false;
  try {
    const value = JSON.parse(line.replace(/^\ufeff/, '').replaceAll('\u0000', '')) as unknown;
    return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
  } catch {
    return false;
  }
}
