/**
 * Splits a byte stream into lines without ever decoding the whole stream as one string.
 *
 * ```ts
 * const decoder = new LineDecoder((buf, start, end, line, byteOffset) => { ... }, onOversize);
 * for await (const chunk of stream) decoder.push(chunk);
 * decoder.flush();
 * ```
 *
 * - A line is the bytes before a `\n` (the `\n` excluded; a `\r` before it is left to the caller).
 * - Chunks may split a line, a `\r\n` pair or a multi-byte UTF-8 character anywhere: lines are handed
 *   over as bytes, so nothing is decoded across a chunk boundary.
 * - A line longer than `maxLineBytes` is never buffered whole: its bytes are dropped as they arrive
 *   and `onOversize` reports it once, with its length, when its end is reached.
 * - `flush()` hands over a last line that has no trailing `\n` (a complete file's last line);
 *   a live reader that must not consume half-written lines simply does not call it.
 */
export type OnLine = (buf: Buffer, start: number, end: number, line: number, byteOffset: number) => void;

/** Reports a line dropped for its size: 1-based line number, offset of its first byte, its length. */
export type OnOversize = (line: number, byteOffset: number, byteLength: number) => void;

/** Default cap on one line: 64 MiB. */
export const DEFAULT_MAX_LINE_BYTES: number = 64 * 1024 * 1024;

/** Incremental byte → line splitter (see the module comment). */
export class LineDecoder {
  readonly #onLine: OnLine;
  readonly #onOversize: OnOversize;
  readonly #maxLineBytes: number;
  /** Bytes of the current, unfinished line (copied: callers may reuse their chunk buffers). */
  #pending: Buffer[] = [];
  #pendingLength = 0;
  /** The current line passed the cap: its bytes are being skipped. */
  #oversize = false;
  #lineNumber = 0;
  /** Offset of the current line's first byte. */
  #lineStart = 0;

  /**
   * @param onLine receives each complete line as `buf[start, end)`, with its 1-based number and byte offset
   * @param onOversize receives each line dropped for exceeding `maxLineBytes`
   * @param maxLineBytes the cap on one line's bytes (default 64 MiB)
   */
  constructor(onLine: OnLine, onOversize: OnOversize, maxLineBytes: number = DEFAULT_MAX_LINE_BYTES) {
    this.#onLine = onLine;
    this.#onOversize = onOversize;
    this.#maxLineBytes = maxLineBytes;
  }

  /** Lines completed so far. */
  get lineCount(): number {
    return this.#lineNumber;
  }

  /** Bytes held for an unfinished line (0 when the input so far ends with a newline). */
  get pendingBytes(): number {
    return this.#pendingLength;
  }

  /**
   * Feeds the next chunk of bytes.
   * @param chunk the bytes; not retained after the call returns
   */
  push(chunk: Buffer): void {
    let pos = 0;
    for (let nl = chunk.indexOf(10, pos); nl !== -1; nl = chunk.indexOf(10, pos)) {
      this.#lineNumber++;
      const length = this.#pendingLength + (nl - pos);
      if (this.#oversize || length > this.#maxLineBytes) {
        this.#onOversize(this.#lineNumber, this.#lineStart, length);
      } else if (this.#pendingLength === 0) {
        this.#onLine(chunk, pos, nl, this.#lineNumber, this.#lineStart);
      } else {
        this.#pending.push(chunk.subarray(pos, nl));
        this.#onLine(Buffer.concat(this.#pending, length), 0, length, this.#lineNumber, this.#lineStart);
      }
      this.#lineStart += length + 1;
      this.#pending = [];
      this.#pendingLength = 0;
      this.#oversize = false;
      pos = nl + 1;
    }
    if (pos < chunk.length) this.#hold(chunk.subarray(pos));
  }

  /** Hands over the last line if the input did not end with a newline. */
  flush(): void {
    if (this.#pendingLength === 0 && !this.#oversize) return;
    this.#lineNumber++;
    const length = this.#pendingLength;
    if (this.#oversize) this.#onOversize(this.#lineNumber, this.#lineStart, length);
    else this.#onLine(Buffer.concat(this.#pending, length), 0, length, this.#lineNumber, this.#lineStart);
    this.#lineStart += length;
    this.#pending = [];
    this.#pendingLength = 0;
    this.#oversize = false;
  }

  #hold(bytes: Buffer): void {
    this.#pendingLength += bytes.length;
    if (this.#oversize) return;
    if (this.#pendingLength > this.#maxLineBytes) {
      this.#oversize = true;
      this.#pending = [];
      return;
    }
    this.#pending.push(Buffer.from(bytes));
  }
}
