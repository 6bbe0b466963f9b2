import type { FileHandle } from 'node:fs/promises';
import { diagnostic, type Diagnostic, type OnDiagnostic } from '../diagnostics/diagnostic.ts';
import { isUtf8 } from 'node:buffer';
import { decodeLine, invalidUtf8 } from './decode-line.ts';
import { findUnread, type Unread } from './find-unread.ts';
import { openRegular } from './open-regular.ts';
import { DEFAULT_MAX_LINE_BYTES, LineDecoder } from './line-decoder.ts';
import { DEFAULT_MAX_DEPTH, keep, parseLineInto, parseObject, type RawRecord } from './parse-line.ts';

/** Where a record came from: 1-based line number and the byte offset of that line in its file. */
export interface LinePlace {
  line: number;
  byteOffset: number;
}

/** Receives each record as it is read, with its 1-based line number and the byte offset of that line. */
export type OnRecord = (record: RawRecord, line: number, byteOffset: number) => void;

/** Options of the read stage. */
export interface ReadOptions {
  /** Cap on one line's size in bytes; a longer line is a `LINE_TOO_LONG` diagnostic. Default 64 MiB. */
  maxLineBytes?: number;
  /** Size of each read from the file in bytes. Default 1 MiB. */
  chunkBytes?: number;
  /** How deep nested JSON is kept; deeper values are cut (`TOO_DEEP`). Default 256. */
  maxDepth?: number;
  /**
   * Only lines holding these bytes are decoded and parsed; the others are skipped unread (a pre-filter
   * for readers that need one record type, as usage counting needs assistant lines). Off by default:
   * with it, skipped lines give neither record nor diagnostic.
   */
  onlyLinesWith?: string;
  /**
   * Leave out, undecoded and unparsed, what the model never reads: a `toolUseResult` value and a progress
   * row's `data` (see `findUnread`; records then lack those keys). A skipped value is still checked for
   * UTF-8 (`INVALID_UTF8`), for ending within its line and for its depth; not for JSON grammar or numbers
   * (docs/diagnostics.md). Off by default; `collectFiles` turns it on.
   */
  skipUnread?: boolean;
  /**
   * With `skipUnread`, also leave out the `content` of a line's top-level `message` (an assistant line's
   * text, thinking and tool calls), for readers of usage only (`countUsage`): records then lack
   * `message.content`. Checked for what `skipUnread` checks.
   */
  skipContent?: boolean;
}

/** Totals of one file read. */
export interface ReadStats {
  /** Lines in the file (a last line without `\n` counts). */
  lines: number;
  /** Bytes in the file. */
  bytes: number;
}

const DEFAULT_CHUNK_BYTES = 1024 * 1024;

/**
 * The read stage, streaming: reads a transcript file by bytes and hands over each record and each
 * diagnostic as it goes, never holding the file as one string.
 *
 * Every line yields at least one record or one diagnostic (see `parseLine` for the rules: BOM, CRLF,
 * glued records, NUL padding, blank and invalid lines). Lines over `maxLineBytes` give `LINE_TOO_LONG`.
 * A file that cannot be opened or read gives `FILE_UNREADABLE` and whatever was read before; so does a
 * path that is not a regular file (a FIFO, `/dev/zero`, a folder: never opened blocking, never read). A file that
 * is UTF-16 (a byte-order mark, or a first `{` of two bytes) is converted to UTF-8 as it is read
 * (`UTF16_FILE`, info).
 * Never throws for a file's content or absence.
 *
 * @param path the file
 * @param onRecord receives each record with its line and byte offset
 * @param onDiagnostic receives each diagnostic
 * @param options `maxLineBytes`, `chunkBytes`
 * @returns the number of lines and bytes read
 */
export async function readTranscriptLines(
  path: string,
  onRecord: OnRecord,
  onDiagnostic: OnDiagnostic,
  options: ReadOptions = {},
): Promise<ReadStats> {
  const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
  const marker = options.onlyLinesWith === undefined ? undefined : Buffer.from(options.onlyLinesWith);
  // the marker's next place in the bytes being split (`markerBuf`, forgotten at each push: read buffers
  // are reused), so that the lines of a chunk cost one scan for it in all, not one each
  let markerBuf: Buffer | undefined;
  let markerAt = -1;
  const decoder = new LineDecoder(
    (buf, start, end, line, byteOffset) => {
      if (marker !== undefined) {
        if (buf !== markerBuf || (markerAt !== -1 && markerAt < start)) [markerBuf, markerAt] = [buf, buf.indexOf(marker, start)];
        if (markerAt === -1 || markerAt + marker.length > end) return;
      }
      if (options.skipUnread === true) {
        const unread = findUnread(buf, start, end, maxDepth, options.skipContent === true);
        if (unread !== undefined && parseAround(buf, start, end, unread, path, line, byteOffset, maxDepth, onRecord, onDiagnostic)) return;
      }
      const text = decodeLine(buf, start, end, path, line, byteOffset, onDiagnostic);
      parseLineInto(text, path, line, byteOffset, maxDepth, onRecord, onDiagnostic);
    },
    (line, byteOffset, byteLength) =>
      onDiagnostic(
        diagnostic('LINE_TOO_LONG', `line of ${byteLength} bytes is over the ${maxLineBytes}-byte cap; skipped`, {
          file: path,
          line,
          byteOffset,
        }),
      ),
    maxLineBytes,
  );
  let bytes = 0;
  let handle: FileHandle | undefined;
  let buffer: Buffer | undefined;
  try {
    ({ handle } = await openRegular(path));
    buffer = takeBuffer(Math.max(2, options.chunkBytes ?? DEFAULT_CHUNK_BYTES));
    let utf16: TextDecoder | undefined;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
      if (bytesRead === 0) break;
      const chunk = bytesRead === buffer.length ? buffer : buffer.subarray(0, bytesRead);
      if (bytes === 0) utf16 = utf16Decoder(chunk, path, onDiagnostic);
      bytes += bytesRead;
      markerBuf = undefined;
      decoder.push(utf16 === undefined ? chunk : Buffer.from(utf16.decode(chunk, { stream: true }), 'utf8'));
    }
    markerBuf = undefined;
    if (utf16 !== undefined) decoder.push(Buffer.from(utf16.decode(), 'utf8'));
    decoder.flush();
  } catch (error) {
    onDiagnostic(diagnostic('FILE_UNREADABLE', `cannot read: ${(error as Error).message}`, { file: path }));
  } finally {
    if (buffer !== undefined && spare.length < 4) spare.push(buffer);
    await handle?.close();
  }
  return { lines: decoder.lineCount, bytes };
}

/**
 * Read buffers not in use, for the next file: a fresh 1 MiB buffer per file cost 404–521 ms CPU over
 * 1,584 files against 75–117 ms reused (issue 16). Lines never keep a chunk's bytes (the line decoder
 * copies what it holds over), so a buffer is free again once its file is read; reads that run at the
 * same time each take their own.
 */
const spare: Buffer[] = [];

function takeBuffer(size: number): Buffer {
  const i = spare.findIndex((b) => b.length === size);
  if (i === -1) return Buffer.allocUnsafe(size);
  const [buffer] = spare.splice(i, 1);
  return buffer as Buffer;
}

/**
 * Parses a line without its unread span; `false` (nothing reported) when the rest is not one object, so
 * the caller parses the line whole and reports what it holds. Reports `INVALID_UTF8` as `decodeLine` would
 * for the whole line, the skipped bytes included.
 */
function parseAround(
  buf: Buffer,
  start: number,
  end: number,
  unread: Unread,
  path: string,
  line: number,
  byteOffset: number,
  maxDepth: number,
  onRecord: OnRecord,
  onDiagnostic: OnDiagnostic,
): boolean {
  const text = buf.toString('utf8', start, unread.from) + buf.toString('utf8', unread.to, end);
  const record = parseObject(text);
  if (record === undefined) return false;
  if ((text.includes('\uFFFD') || !isUtf8(buf.subarray(unread.value, unread.to))) && !isUtf8(buf.subarray(start, end))) {
    onDiagnostic(invalidUtf8(path, line, byteOffset));
  }
  keep(record, path, line, byteOffset, maxDepth, onRecord, onDiagnostic);
  return true;
}

/**
 * A decoder for a file that is UTF-16 (`UTF16_FILE`, info), else `undefined`: Claude Code writes UTF-8,
 * but a copy saved through Windows PowerShell's `>` is UTF-16LE. Told by a byte-order mark (which the
 * decoder drops), or, without one, by a first `{` written as two bytes (`7B 00`, `00 7B`): a transcript
 * starts with an object. The output is re-encoded as UTF-8 before lines are split.
 */
function utf16Decoder(first: Buffer, path: string, onDiagnostic: OnDiagnostic): TextDecoder | undefined {
  const [a, b] = [first[0], first[1]];
  const le = a === 0xff && b === 0xfe;
  const be = a === 0xfe && b === 0xff;
  const encoding = le || (a === 0x7b && b === 0x00) ? 'utf-16le' : be || (a === 0x00 && b === 0x7b) ? 'utf-16be' : undefined;
  if (encoding === undefined) return undefined;
  const how = le || be ? 'byte-order mark' : 'no byte-order mark, but a first "{" of two bytes';
  onDiagnostic(diagnostic('UTF16_FILE', `file is ${encoding.toUpperCase()} (${how}); converted to UTF-8 as read, so byte offsets count converted bytes`, { file: path }));
  return new TextDecoder(encoding);
}

/** A record with its place in the file. */
export interface ReadRecord extends LinePlace {
  record: RawRecord;
}

/** The whole result of reading one file. */
export interface ReadResult extends ReadStats {
  records: ReadRecord[];
  diagnostics: Diagnostic[];
}

/**
 * The read stage, collected: every record and diagnostic of one transcript file, in file order.
 *
 * ```ts
 * const { records, diagnostics, lines } = await readTranscript('~/.claude/projects/p/s.jsonl');
 * ```
 *
 * @param path the file
 * @param options as for `readTranscriptLines`
 * @returns records and diagnostics in file order, with line and byte totals
 */
export async function readTranscript(path: string, options: ReadOptions = {}): Promise<ReadResult> {
  const records: ReadRecord[] = [];
  const diagnostics: Diagnostic[] = [];
  const stats = await readTranscriptLines(
    path,
    (record, line, byteOffset) => records.push({ record, line, byteOffset }),
    (d) => diagnostics.push(d),
    options,
  );
  return { records, diagnostics, ...stats };
}
