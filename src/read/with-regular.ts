import type { Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { openRegular } from './open-regular.ts';

/** A regular file opened by `openRegular`: its handle and its stats at the open. */
export interface OpenedFile {
  handle: FileHandle;
  info: Stats;
}

/**
 * Runs `work` on a regular file: a path is opened here (`openRegular`) and closed after; an open file is
 * the caller's, used as it is and left open (several readers of one file share one open, one `fstat`).
 * @param file a path, or a file the caller opened with `openRegular`
 * @param work what to do with it
 * @returns what `work` returns
 * @throws NotRegularFile, or the system error when the path cannot be opened
 */
export async function withRegular<T>(file: string | OpenedFile, work: (opened: OpenedFile) => Promise<T>): Promise<T> {
  if (typeof file !== 'string') return work(file);
  const opened = await openRegular(file);
  try {
    return await work(opened);
  } finally {
    await opened.handle.close();
  }
}
