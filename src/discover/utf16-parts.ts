import { utf16Encoding } from '../read/utf16-encoding.ts';

/** What a UTF-16 file gave as UTF-8: the first `headBytes` and the last `tailBytes` of it, and its length. */
export interface Utf8Edges {
  head: Buffer;
  tail: Buffer;
  /** Bytes of the whole file as UTF-8. */
  size: number;
}

/**
 * A file's parts, in file order, handed on as UTF-8: unchanged when the file is UTF-8, converted as they come
 * when its first bytes say UTF-16 (`utf16Encoding`: a copy saved through Windows PowerShell's `>`; the byte-order
 * mark dropped), with the converted file's first and last bytes kept for `romp ls`'s edges and last time (the
 * file's own bytes there are UTF-16, which the byte scans for `"timestamp"` and titles cannot read).
 */
export class Utf16Parts {
  readonly #onPart: (bytes: Buffer) => void;
  readonly #headBytes: number;
  readonly #tailBytes: number;
  #started = false;
  #decoder: TextDecoder | undefined;
  #head: Buffer[] = [];
  #headSize = 0;
  /** The last converted parts, at least `tailBytes` of them while there are (the older ones dropped). */
  #tail: Buffer[] = [];
  #tailSize = 0;
  #size = 0;

  /**
   * @param onPart receives the UTF-8 bytes, part after part
   * @param headBytes converted bytes kept from the start
   * @param tailBytes converted bytes kept from the end
   */
  constructor(onPart: (bytes: Buffer) => void, headBytes: number, tailBytes: number) {
    this.#onPart = onPart;
    this.#headBytes = headBytes;
    this.#tailBytes = tailBytes;
  }

  /**
   * The next part of the file (the first one holds its first bytes, two at least when the file has them).
   * @param part bytes of the file (a buffer the caller may reuse once this returns)
   */
  push(part: Buffer): void {
    if (!this.#started) {
      this.#started = true;
      const found = utf16Encoding(part);
      if (found !== undefined) this.#decoder = new TextDecoder(found.encoding);
    }
    if (this.#decoder === undefined) this.#onPart(part);
    else this.#converted(Buffer.from(this.#decoder.decode(part, { stream: true }), 'utf8'));
  }

  /**
   * The file has ended.
   * @returns the converted file's edges when it was UTF-16, else undefined (the parts went on as they were)
   */
  done(): Utf8Edges | undefined {
    if (this.#decoder === undefined) return undefined;
    this.#converted(Buffer.from(this.#decoder.decode(), 'utf8'));
    const tail = Buffer.concat(this.#tail);
    return {
      head: Buffer.concat(this.#head),
      tail: tail.subarray(Math.max(0, tail.length - this.#tailBytes)),
      size: this.#size,
    };
  }

  #converted(bytes: Buffer): void {
    if (bytes.length === 0) return;
    this.#onPart(bytes);
    this.#size += bytes.length;
    if (this.#headSize < this.#headBytes) {
      const kept = bytes.subarray(0, this.#headBytes - this.#headSize);
      this.#head.push(kept);
      this.#headSize += kept.length;
    }
    this.#tail.push(bytes);
    this.#tailSize += bytes.length;
    while (this.#tailSize - (this.#tail[0] as Buffer).length >= this.#tailBytes)
      this.#tailSize -= (this.#tail.shift() as Buffer).length;
  }
}
