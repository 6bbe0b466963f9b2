import { createHash } from 'node:crypto';
import { open, type FileHandle } from 'node:fs/promises';

/** How many bytes of a file's start `headHash` covers, and of the end of what was read `tailHash`. */
export const HEAD_BYTES = 4096;
export const TAIL_BYTES = 64;

/** What the index records of a file to know, next time, whether it changed and how. */
export interface FileStamp {
  dev: number;
  ino: number;
  /** Bytes. */
  size: number;
  mtime_ms: number;
  /** SHA-1 (hex) of the first {@link HEAD_BYTES} bytes (fewer in a smaller file). */
  head_hash: string;
  /** SHA-1 (hex) of the {@link TAIL_BYTES} bytes before `size`. */
  tail_hash: string;
}

/**
 * A file's stamp: its device, inode, size, modification time, and hashes of its first bytes and of the
 * bytes just before `size`.
 * @param path the file
 * @returns the stamp, or `undefined` when it cannot be read (vanished, unreadable)
 */
export async function stampFile(path: string): Promise<FileStamp | undefined> {
  try {
    const handle = await open(path, 'r');
    try {
      // one open for the size and both hashes
      const info = await handle.stat();
      const head = await hashOf(handle, 0, HEAD_BYTES);
      const tailAt = Math.max(0, info.size - TAIL_BYTES);
      return {
        dev: info.dev,
        ino: info.ino,
        size: info.size,
        mtime_ms: info.mtimeMs,
        head_hash: head,
        tail_hash: await hashOf(handle, tailAt, Math.min(info.size, TAIL_BYTES)),
      };
    } finally {
      await handle.close();
    }
  } catch {
    return undefined;
  }
}

/**
 * SHA-1 (hex) of `length` bytes of a file from `position` (fewer when the file ends first).
 * @param path the file
 * @param position first byte
 * @param length bytes
 * @returns the hash
 */
export async function hashAt(path: string, position: number, length: number): Promise<string> {
  const handle = await open(path, 'r');
  try {
    return await hashOf(handle, position, length);
  } finally {
    await handle.close();
  }
}

async function hashOf(handle: FileHandle, position: number, length: number): Promise<string> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await handle.read(buffer, 0, length, position);
  return createHash('sha1').update(buffer.subarray(0, bytesRead)).digest('hex');
}
