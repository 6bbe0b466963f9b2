import { closeSync, constants, fstatSync, openSync, type Stats } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';

/** Raised by `openRegular` for a path that is not a regular file (a FIFO, a device, a folder, a socket). */
export class NotRegularFile extends Error {
  /** What the path is instead: `a FIFO`, `a character device`, `a folder`, … */
  readonly kind: string;
  constructor(kind: string) {
    super(`not a regular file (${kind})`);
    this.kind = kind;
  }
}

/**
 * Opens a file for reading only when it is a regular file, never blocking on the way: the open is
 * non-blocking (`O_NONBLOCK`, so a FIFO without a writer does not stall a thread) and the type is
 * checked on the open handle (`fstat`), so a path swapped between a check and the open is caught too.
 * A FIFO, `/dev/zero` or a folder would otherwise hang a read or never reach its end.
 * @param path the file (a symlink is followed, to a regular file only)
 * @returns the open handle and its stats; the caller closes the handle
 * @throws NotRegularFile for anything but a regular file; the system error (ENOENT, EACCES, …) when it cannot be opened
 */
export async function openRegular(path: string): Promise<{ handle: FileHandle; info: Stats }> {
  const handle = await open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new NotRegularFile(kindOf(info));
    return { handle, info };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/**
 * `openRegular` without the thread pool: the same non-blocking open and `fstat` check, as two system
 * calls on the calling thread. For the live watcher's small reads, which would otherwise wait their turn
 * for a pool thread on a loaded machine (each a few ms) for a few µs of work, and for the usage reader's
 * worker threads, where nothing else waits.
 * @param path the file (a symlink is followed, to a regular file only)
 * @returns the open file descriptor and its stats; the caller closes it (`closeSync`)
 * @throws NotRegularFile for anything but a regular file; the system error when it cannot be opened
 */
export function openRegularSync(path: string): { fd: number; info: Stats } {
  const fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) throw new NotRegularFile(kindOf(info));
    return { fd, info };
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

function kindOf(info: Stats): string {
  if (info.isFIFO()) return 'a FIFO';
  if (info.isCharacterDevice()) return 'a character device';
  if (info.isBlockDevice()) return 'a block device';
  if (info.isDirectory()) return 'a folder';
  if (info.isSocket()) return 'a socket';
  return 'not a file';
}
