import { closeSync, readSync, type Stats } from 'node:fs';
import { openRegularSync } from '../read/open-regular.ts';

/** The buffer every call reads into, grown to the largest file read. */
let shared = Buffer.allocUnsafe(1024 * 1024);

/**
 * A regular file's bytes, read on this thread in one open, `fstat` and read (no thread-pool round trips:
 * `romp ls` reads thousands of small files, and four promised calls a file cost more CPU than the bytes),
 * when the file holds at most `max` bytes. The bytes are a view of one buffer that the next call
 * overwrites: use them before anything else can call (no `await` in between).
 * @param path the file
 * @param max the most bytes read (a larger file gives only its stats)
 * @returns its stats, and its bytes when it is no larger than `max` (fewer when it shrank meanwhile)
 * @throws NotRegularFile, or the system error when it cannot be opened or read
 */
export function readWholeSync(path: string, max: number): { info: Stats; bytes?: Buffer } {
  const { fd, info } = openRegularSync(path);
  try {
    if (info.size > max) return { info };
    if (shared.length < info.size) shared = Buffer.allocUnsafe(info.size);
    let got = 0;
    for (let read = -1; got < info.size && read !== 0; got += read)
      read = readSync(fd, shared, got, info.size - got, got);
    return { info, bytes: shared.subarray(0, got) };
  } finally {
    closeSync(fd);
  }
}
