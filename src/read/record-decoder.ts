import { isUtf8 } from 'node:buffer';
import { diagnostic, type Diagnostic, type OnDiagnostic } from '../diagnostics/diagnostic.ts';
import { decodeLine, invalidUtf8 } from './decode-line.ts';
import { findUnread, type Unread } from './find-unread.ts';
import { DEFAULT_MAX_LINE_BYTES, LineDecoder } from './line-decoder.ts';
import { DEFAULT_MAX_DEPTH, keep, parseLineInto, parseObject, type RawRecord } from './parse-line.ts';
import { utf16Encoding } from './utf16-encoding.ts';
import { holdShape } from '../model/hold-shape.ts';

/** Receives each record as it is read, with its 1-based line number and the byte offset of that line. */
export type OnRecord = (record: RawRecord, line: number, byteOffset: number) => void;

/** How a `RecordDecoder` decodes: the read stage's options that concern bytes, not files. */
export interface RecordDecodeOptions {
  /** Cap on one line's size in bytes; a longer line is a `LINE_TOO_LONG` diagnostic. Default 64 MiB. */
  maxLineBytes?: number;
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
   * (docs/diagnostics.md). Off by default; the session builder turns it on.
   */
  skipUnread?: boolean;
  /**
   * With `skipUnread`, also leave out the `content` of a line's top-level `message` (an assistant line's
   * text, thinking and tool calls), for readers of usage only (`countUsage`): records then lack
   * `message.content`. Checked for what `skipUnread` checks.
   */
  skipContent?: boolean;
}

/**
 * The one decoder of a transcript's bytes into records, fed chunk by chunk (a whole file read in
 * chunks, or a live file's appends): the first bytes tell a UTF-16 file (a byte-order mark, or a first
 * `{` of two bytes: `UTF16_FILE`, info), converted to UTF-8 as it is read; lines are split at `\n`
 * (`LineDecoder`: a line over `maxLineBytes` is `LINE_TOO_LONG`), each decoded on its own (`INVALID_UTF8`)
 * and parsed (`parseLine`'s rules: BOM, CRLF, glued records, NUL padding, blank and invalid lines).
 * Every line yields at least one record or one diagnostic.
 *
 * ```ts
 * const decoder = new RecordDecoder(path, onRecord, onDiagnostic, { skipUnread: true });
 * decoder.push(chunk); // as often as bytes come
 * decoder.end(); // a complete file: its last line without `\n` too (a live reader waits instead)
 * ```
 */
export class RecordDecoder {
  readonly #path: string;
  readonly #onDiagnostic: OnDiagnostic;
  readonly #lines: LineDecoder;
  /** The first byte of the file, while a second is awaited to tell UTF-16. */
  #head: Buffer | undefined;
  #started = false;
  #utf16: TextDecoder | undefined;
  #bytes = 0;
  /**
   * The `onlyLinesWith` marker's next place (`#markerAt`) in the bytes being split (`#markerBuf`, forgotten
   * at each push: chunk buffers are reused), so the lines of a chunk cost one scan for it in all, not one each.
   */
  #markerBuf: Buffer | undefined;
  #markerAt = -1;
  /**
   * The bytes being split (`#validBuf`) are valid UTF-8 up to `#validEnd` (checked once per push, up to its
   * last `\n`): a line that ends there needs no check of its own, the skipped span of `skipUnread` included.
   */
  #validBuf: Buffer | undefined;
  #validEnd = 0;

  /**
   * @param path the file, for diagnostics
   * @param onRecord receives each record
   * @param onDiagnostic receives each diagnostic
   * @param options `maxLineBytes`, `maxDepth`, `onlyLinesWith`, `skipUnread`, `skipContent`
   */
  constructor(path: string, onRecord: OnRecord, onDiagnostic: OnDiagnostic, options: RecordDecodeOptions = {}) {
    this.#path = path;
    this.#onDiagnostic = onDiagnostic;
    const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
    const maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
    const marker = options.onlyLinesWith === undefined ? undefined : Buffer.from(options.onlyLinesWith);
    const skipUnread = options.skipUnread === true;
    const skipContent = options.skipContent === true;
    this.#lines = new LineDecoder(
      (buf, start, end, line, byteOffset) => {
        if (marker !== undefined) {
          if (buf !== this.#markerBuf || (this.#markerAt !== -1 && this.#markerAt < start))
            [this.#markerBuf, this.#markerAt] = [buf, buf.indexOf(marker, start)];
          if (this.#markerAt === -1 || this.#markerAt + marker.length > end) return;
        }
        const valid = buf === this.#validBuf && end <= this.#validEnd;
        if (skipUnread) {
          const unread = findUnread(buf, start, end, maxDepth, skipContent);
          if (
            unread !== undefined &&
            parseAround(buf, start, end, unread, valid, path, line, byteOffset, maxDepth, onRecord, onDiagnostic)
          )
            return;
        }
        const text = valid
          ? buf.toString('utf8', start, end)
          : decodeLine(buf, start, end, path, line, byteOffset, onDiagnostic);
        parseLineInto(text, path, line, byteOffset, maxDepth, onRecord, onDiagnostic);
      },
      (line, byteOffset, byteLength) => onDiagnostic(lineTooLong(path, line, byteOffset, byteLength, maxLineBytes)),
      maxLineBytes,
    );
  }

  /** Lines completed so far. */
  get lineCount(): number {
    return this.#lines.lineCount;
  }

  /** Bytes pushed so far, as they were in the file (before any UTF-16 conversion). */
  get bytes(): number {
    return this.#bytes;
  }

  /** Bytes held for an unfinished line or a first byte awaiting its second (0 when every byte pushed is in a line
   * completed by its `\n`). */
  get pendingBytes(): number {
    return (this.#head?.length ?? 0) + this.#lines.pendingBytes;
  }

  /**
   * Feeds the next bytes of the file.
   * @param chunk the bytes; not retained after the call returns
   */
  push(chunk: Buffer): void {
    if (chunk.length === 0) return;
    this.#bytes += chunk.length;
    if (!this.#started) {
      const head = this.#head === undefined ? chunk : Buffer.concat([this.#head, chunk]);
      if (head.length < 2) {
        this.#head = Buffer.from(head);
        return;
      }
      this.#head = undefined;
      this.#started = true;
      this.#utf16 = utf16Decoder(head, this.#path, this.#onDiagnostic);
      chunk = head;
    }
    this.#markerBuf = undefined;
    const bytes = this.#utf16 === undefined ? chunk : Buffer.from(this.#utf16.decode(chunk, { stream: true }), 'utf8');
    // one check of the whole chunk (up to its last line end) costs less than one per line: 33 against
    // 45–80 ms over a 200 MiB session; a chunk with a bad byte anywhere leaves each line to check itself
    const last = bytes.lastIndexOf(10) + 1;
    this.#validBuf = bytes;
    this.#validEnd = last > 0 && isUtf8(bytes.subarray(0, last)) ? last : 0;
    this.#lines.push(bytes);
    this.#validBuf = undefined;
  }

  /** The file is complete: hands over its last line if it has no `\n`. */
  end(): void {
    this.#markerBuf = undefined;
    if (this.#head !== undefined) {
      this.#lines.push(this.#head);
      this.#head = undefined;
    }
    if (this.#utf16 !== undefined) this.#lines.push(Buffer.from(this.#utf16.decode(), 'utf8'));
    this.#lines.flush();
  }
}

holdShape(new RecordDecoder('', ignore, ignore));

function ignore(): void {}

/**
 * The `LINE_TOO_LONG` diagnostic (error) of a line dropped for its size, the one wording of every reader.
 * @param file the file (or stream) name
 * @param line 1-based line number
 * @param byteOffset offset of the line's first byte
 * @param byteLength the line's length in bytes
 * @param maxLineBytes the cap it passed
 * @returns the diagnostic
 */
export function lineTooLong(
  file: string,
  line: number,
  byteOffset: number,
  byteLength: number,
  maxLineBytes: number,
): Diagnostic {
  return diagnostic('LINE_TOO_LONG', `line of ${byteLength} bytes is over the ${maxLineBytes}-byte cap; skipped`, {
    file,
    line,
    byteOffset,
  });
}

/**
 * Parses a line without its unread span; `false` (nothing reported) when the rest is not one object, so
 * the caller parses the line whole and reports what it holds. Reports `INVALID_UTF8` as `decodeLine` would
 * for the whole line, the skipped bytes included, unless the line is known to be valid (`valid`).
 */
function parseAround(
  buf: Buffer,
  start: number,
  end: number,
  unread: Unread,
  valid: boolean,
  path: string,
  line: number,
  byteOffset: number,
  maxDepth: number,
  onRecord: OnRecord,
  onDiagnostic: OnDiagnostic,
): boolean {
  const text = joinedText(buf, start, unread.from, unread.to, end);
  const record = parseObject(text);
  if (record === undefined) return false;
  if (
    !valid &&
    (text.includes('\uFFFD') || !isUtf8(buf.subarray(unread.value, unread.to))) &&
    !isUtf8(buf.subarray(start, end))
  ) {
    onDiagnostic(invalidUtf8(path, line, byteOffset));
  }
  keep(record, path, line, byteOffset, maxDepth, onRecord, onDiagnostic);
  return true;
}

/**
 * The text of `buf[start, from)` and `buf[to, end)` joined, decoded once: the two parts are copied side
 * by side into one reused buffer, so `JSON.parse` gets one flat string, not two strings and the flat copy
 * it would make of their concatenation. Both cuts are at ASCII bytes (a `,` and the byte after a value),
 * so the text is what decoding each part would give.
 */
function joinedText(buf: Buffer, start: number, from: number, to: number, end: number): string {
  const head = from - start;
  const length = head + end - to;
  if (joined.length < length && length <= JOINED_MAX) joined = Buffer.allocUnsafe(Math.min(JOINED_MAX, 2 * length));
  const target = length <= joined.length ? joined : Buffer.allocUnsafe(length);
  buf.copy(target, 0, start, from);
  buf.copy(target, head, to, end);
  return target.toString('utf8', 0, length);
}

/**
 * `joinedText`'s buffer (one line at a time: decoding never yields), grown up to `JOINED_MAX`; a longer
 * line (up to the 64 MiB line cap) gets a buffer of its own, not kept.
 */
let joined = Buffer.allocUnsafe(64 * 1024);
const JOINED_MAX = 1024 * 1024;

/**
 * A decoder for a file that is UTF-16 (`UTF16_FILE`, info: `utf16Encoding`'s rule), else `undefined`; the
 * decoder drops a byte-order mark. The output is re-encoded as UTF-8 before lines are split.
 */
function utf16Decoder(first: Buffer, path: string, onDiagnostic: OnDiagnostic): TextDecoder | undefined {
  const found = utf16Encoding(first);
  if (found === undefined) return undefined;
  const { encoding, bom } = found;
  const how = bom ? 'byte-order mark' : 'no byte-order mark, but a first "{" of two bytes';
  onDiagnostic(
    diagnostic(
      'UTF16_FILE',
      `file is ${encoding.toUpperCase()} (${how}); converted to UTF-8 as read, so byte offsets count converted bytes`,
      { file: path },
    ),
  );
  return new TextDecoder(encoding);
}
