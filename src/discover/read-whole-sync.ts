import { closeSync, readSync, type Stats } from 'node:fs';
import { openRegularSync } from '../read/open-regular.ts';

/** Bytes of one read: reads into the same 64 KiB stay in the CPU's cache (a whole 300 KB file read at once costs
 * 2-3x the system time). */
const PART = 64 * 1024;
/** The buffers every call reads into: the file's first part, its last, and the parts between. */
const headPart = Buffer.allocUnsafe(PART);
const tailPart = Buffer.allocUnsafe(PART);
const middlePart = Buffer.allocUnsafe(PART);

/** What `readWholeSync` read of a file besides handing over its parts. */
export interface FileEdgeParts {
  info: Stats;
  /** The file's first 64 KiB (all of it when smaller). */
  head: Buffer;
  /** Its last 64 KiB (all of it when smaller: then the same bytes as `head`). */
  tail: Buffer;
}

/**
 * A regular file's bytes, read on this thread in 64 KiB reads with one open and `fstat` (no thread-pool
 * round trips: `romp ls` reads thousands of small files, and four promised calls a file cost more CPU
 * than the bytes), each byte once: its last part first, then the others in order. Every part from byte `from` on is
 * handed to `onPart` in file order (with `from`, the bytes before are not read, but for the first part); the first and
 * last stay readable after (views of buffers the next call overwrites: use them before anything else can call, with no
 * `await` in between).
 * @param path the file
 * @param onPart receives the file's bytes from `from` on, part after part (a buffer reused once the call returns)
 * @param from the first byte handed over (default 0: the whole file)
 * @returns its stats, first and last parts (fewer bytes when it shrank meanwhile)
 * @throws NotRegularFile, or the system error when it cannot be opened or read
 */
export function readWholeSync(path: string, onPart: (bytes: Buffer) => void, from = 0): FileEdgeParts {
  const { fd, info } = openRegularSync(path);
  try {
    const size = info.size;
    const tailFrom = Math.max(0, size - PART);
    const tail = tailPart.subarray(0, readAt(fd, tailPart, size - tailFrom, tailFrom));
    if (tailFrom === 0) {
      onPart(tail.subarray(Math.min(from, tail.length)));
      return { info, head: tail, tail };
    }
    const first = readAt(fd, headPart, Math.min(PART, tailFrom), 0);
    if (from < first) onPart(headPart.subarray(from, first));
    // a file of under two parts: the head's end is the tail's start, copied, not read again
    const head = headPart.subarray(0, first + tail.copy(headPart, first, 0, PART - first));
    for (let at = Math.max(first, from); at < tailFrom;) {
      const got = readAt(fd, middlePart, Math.min(PART, tailFrom - at), at);
      if (got === 0) break;
      onPart(got === PART ? middlePart : middlePart.subarray(0, got));
      at += got;
    }
    onPart(tail.subarray(Math.max(0, from - tailFrom)));
    return { info, head, tail };
  } finally {
    closeSync(fd);
  }
}

/** Reads up to `length` bytes at `position` into `buf`'s start; the bytes read. */
function readAt(fd: number, buf: Buffer, length: number, position: number): number {
  let got = 0;
  for (let read = -1; got < length && read !== 0; got += read)
    read = readSync(fd, buf, got, length - got, position + got);
  return got;
}
