import { isUtf8 } from 'node:buffer';
import { closeSync, readSync } from 'node:fs';
import { diagnostic, type OnDiagnostic } from '../diagnostics/diagnostic.ts';
import { decodeLine } from '../read/decode-line.ts';
import { DEFAULT_MAX_LINE_BYTES } from '../read/line-decoder.ts';
import { openRegularSync } from '../read/open-regular.ts';
import { DEFAULT_MAX_DEPTH, keep, parseLineInto } from '../read/parse-line.ts';
import { readTranscriptLines, type OnRecord } from '../read/read-transcript.ts';
import { lineTooLong } from '../read/record-decoder.ts';
import { usageRecord, usageRecordPlain } from './usage-record.ts';
import { utf16Encoding } from '../read/utf16-encoding.ts';
import { errorReason } from '../diagnostics/error-reason.ts';

/** Which bytes of a file `readUsageLines` reads, and how. */
export interface UsageReadOptions {
  /** Offset of the first byte to read, at a line's start (default 0). */
  start?: number;
  /** Offset of the byte after the last one to read (default: the file's end). */
  end?: number;
  /** The number of the line at `start` (default 1), for diagnostics. */
  firstLine?: number;
  /** As the read stage's options (64 MiB, 256). */
  maxLineBytes?: number;
  maxDepth?: number;
}

/** The marker of a line that may be an assistant line: a line without it is never decoded. */
const ASSISTANT = Buffer.from('"assistant"');

/**
 * One read buffer per thread, reused from file to file (a fresh one per file costs more than the reads:
 * issue 16), grown for a line longer than it.
 */
let shared = Buffer.allocUnsafe(1024 * 1024);
/** Bytes asked of one read: reads into the same 64 KiB stay in the CPU's cache (8 MiB reads cost 2-3x the
 * system time). */
const READ_BYTES = 64 * 1024;

/**
 * The assistant lines of a transcript (or of a byte range of it), as `countUsage` reads them: each as a
 * record of just the members usage reads (`usageRecord`), never decoding the other lines. The file is
 * opened and read synchronously (no thread-pool round trips; `collectResponses` yields between files)
 * in 64 KiB reads into one buffer reused across files, and split at `\n` by `Buffer.indexOf`. A line whose
 * top-level `type` is `"assistant"` is checked for UTF-8 and gives its record (through `keep`, so
 * `NUMBER_REPLACED` holds for what is decoded); a line of another type gives nothing, unread past its
 * `type` (cheaper than a search of every byte for `"assistant"`: 40 against 57 ms over 91 MB of user and
 * progress lines). A line the walk cannot take (`usageRecord` gives up) is, if it holds `"assistant"`,
 * decoded and parsed whole as the read stage does, with its diagnostics (`INVALID_JSON`, `INVALID_UTF8`,
 * `TOO_DEEP`, …). A line over `maxLineBytes` is `LINE_TOO_LONG`, a file that cannot be read
 * `FILE_UNREADABLE`. A UTF-16 file (Windows copies: `UTF16_FILE`) is left to `readTranscriptLines` with
 * the `"assistant"` pre-filter.
 * @param path the file
 * @param onRecord receives each assistant record with its line number and byte offset
 * @param onDiagnostic receives the diagnostics
 * @param options the byte range, the first line's number, the read stage's caps
 * @returns the number of the line after the last one read (where a read of the bytes appended next starts), or
 * `undefined` when the file could not be read or is UTF-16 (read whole again)
 */
export async function readUsageLines(
  path: string,
  onRecord: OnRecord,
  onDiagnostic: OnDiagnostic,
  options: UsageReadOptions = {},
): Promise<number | undefined> {
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
  const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  let opened;
  try {
    opened = openRegularSync(path);
  } catch (error) {
    onDiagnostic(diagnostic('FILE_UNREADABLE', `cannot read: ${errorReason(error)}`, { file: path }));
    return undefined;
  }
  const { fd, info } = opened;
  const onAssistant: OnRecord = (record, line, byteOffset) => {
    if (record['type'] === 'assistant') onRecord(record, line, byteOffset);
  };
  const onLine = (buf: Buffer, from: number, to: number, line: number, byteOffset: number): void => {
    const record = usageRecord(buf, from, to, maxDepth);
    if (record === null) return;
    if (record !== undefined && isUtf8(buf.subarray(from, to))) {
      if (!usageRecordPlain() && unwritable(record))
        keep(record, path, line, byteOffset, maxDepth, onRecord, onDiagnostic);
      else onRecord(record, line, byteOffset);
      return;
    }
    if (buf.subarray(from, to).indexOf(ASSISTANT) === -1) return;
    const text = decodeLine(buf, from, to, path, line, byteOffset, onDiagnostic);
    parseLineInto(text, path, line, byteOffset, maxDepth, onAssistant, onDiagnostic);
  };
  let next: number | 'utf16' | undefined;
  try {
    next = splitLines(
      fd,
      options.start ?? 0,
      Math.min(options.end ?? info.size, info.size),
      options.firstLine ?? 1,
      maxLineBytes,
      onLine,
      (line, byteOffset, length) => onDiagnostic(lineTooLong(path, line, byteOffset, length, maxLineBytes)),
    );
  } catch (error) {
    onDiagnostic(diagnostic('FILE_UNREADABLE', `cannot read: ${errorReason(error)}`, { file: path }));
  } finally {
    closeSync(fd);
  }
  if (next !== 'utf16') return next;
  await readTranscriptLines(path, onAssistant, onDiagnostic, {
    onlyLinesWith: '"assistant"',
    skipUnread: true,
    skipContent: true,
    maxDepth,
    maxLineBytes,
  });
  return undefined;
}

/**
 * Reads `[start, end)` of an open file in 64 KiB reads into the shared buffer and hands over each line
 * (the last one without its `\n` too). Returns the number of the line after the last one, or `'utf16'`, having
 * read nothing further, when the file starts as UTF-16 does (a byte-order mark, or a first `{` of two bytes).
 */
function splitLines(
  fd: number,
  start: number,
  end: number,
  firstLine: number,
  maxLineBytes: number,
  onLine: (buf: Buffer, from: number, to: number, line: number, byteOffset: number) => void,
  onTooLong: (line: number, byteOffset: number, length: number) => void,
): number | 'utf16' {
  let buf = shared;
  let base = start; // the file offset of buf[0]
  let filled = 0;
  let lineStart = 0; // in buf
  let line = firstLine;
  /** Bytes of an over-long line dropped so far (-1: none being dropped). */
  let dropped = -1;
  let dropFrom = 0;
  for (;;) {
    if (lineStart > 0) {
      // the start of the line being read moves to the buffer's start: reads land in the same, cached, bytes
      buf.copyWithin(0, lineStart, filled);
      [base, filled, lineStart] = [base + lineStart, filled - lineStart, 0];
    }
    if (filled === buf.length) {
      if (buf.length <= maxLineBytes) {
        const grown = Buffer.allocUnsafe(Math.min(buf.length * 2, maxLineBytes + 1));
        buf.copy(grown, 0, 0, filled);
        buf = shared = grown;
      } else {
        [dropped, dropFrom, base, filled] = [
          Math.max(dropped, 0) + filled,
          dropped === -1 ? base : dropFrom,
          base + filled,
          0,
        ];
      }
    }
    const want = Math.min(buf.length - filled, READ_BYTES, end - (base + filled));
    const read = want > 0 ? readSync(fd, buf, filled, want, base + filled) : 0;
    if (read === 0) break;
    if (base + filled === 0 && start === 0 && read >= 2 && utf16Encoding(buf) !== undefined) return 'utf16';
    let from = filled;
    filled += read;
    for (let nl = buf.indexOf(10, from); nl !== -1 && nl < filled; nl = buf.indexOf(10, from)) {
      if (dropped !== -1) {
        onTooLong(line, dropFrom, dropped + nl);
        dropped = -1;
      } else if (nl - lineStart > maxLineBytes) onTooLong(line, base + lineStart, nl - lineStart);
      else onLine(buf, lineStart, nl, line, base + lineStart);
      line++;
      lineStart = from = nl + 1;
    }
  }
  if (dropped !== -1) onTooLong(line++, dropFrom, dropped + filled);
  else if (filled > lineStart) {
    if (filled - lineStart > maxLineBytes) onTooLong(line, base + lineStart, filled - lineStart);
    else onLine(buf, lineStart, filled, line, base + lineStart);
    line++;
  }
  return line;
}

/**
 * Whether a decoded value holds a number `keep` replaces (`-0`, ±Infinity: `NUMBER_REPLACED`); only then is
 * the record walked by `keep` (its depth is below the cap: `usageRecord` gives up near it). Asked only of a
 * record with a number or an object `JSON.parse` gave (`usageRecordPlain`).
 */
function unwritable(value: unknown): boolean {
  if (typeof value === 'number') return value === 0 ? 1 / value < 0 : !Number.isFinite(value);
  if (typeof value !== 'object' || value === null) return false;
  for (const key in value) if (unwritable((value as Record<string, unknown>)[key])) return true;
  return false;
}
