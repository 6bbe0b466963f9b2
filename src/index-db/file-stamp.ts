import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { openRegular } from '../read/open-regular.ts';

/** How many bytes of a file's start `headHash` covers, and of the end of what was read `tailHash`. */
export const HEAD_BYTES = 4096;
export const TAIL_BYTES = 64;

/** How long before a stamp a file's ctime must be for the stamp to keep it (`FileStamp.ctime_ms`). */
export const SETTLED_MS = 2000;

/**
 * A change time as a stamp keeps it: `-1` when it is less than {@link SETTLED_MS} before `now` (or after it).
 * @param ctimeMs the file's ctime (ms)
 * @param now when it was read (epoch ms)
 * @returns the ctime, or -1
 */
export function settledCtime(ctimeMs: number, now: number): number {
  return ctimeMs < now - SETTLED_MS ? ctimeMs : -1;
}

/** What the index records of a file to know, next time, whether it changed and how. */
export interface FileStamp {
  dev: number;
  ino: number;
  /** Bytes. */
  size: number;
  mtime_ms: number;
  /** The inode's change time (ms), which every write moves and no program can set back; `-1` when it was less than
   * {@link SETTLED_MS} before the stamp (a write within the same clock tick would leave it as it is). */
  ctime_ms: number;
  /** SHA-1 (hex) of the first {@link HEAD_BYTES} bytes (fewer in a smaller file). */
  head_hash: string;
  /** SHA-1 (hex) of the {@link TAIL_BYTES} bytes before `size`. */
  tail_hash: string;
}

/**
 * A file's stamp: its device, inode, size, modification and change times, and hashes of its first bytes and of the
 * bytes just before `size`, read through one handle (`openRegular`: a FIFO is never read).
 * @param path the file
 * @param onError receives why it could not be read, when it could not
 * @param onHead receives the first {@link HEAD_BYTES} bytes read (fewer in a smaller file)
 * @returns the stamp, or `undefined` when it cannot be read (vanished, unreadable, not a regular file)
 */
export async function stampFile(
  path: string,
  onError?: (error: unknown) => void,
  onHead?: (head: Buffer) => void,
): Promise<FileStamp | undefined> {
  // before the file's stat: a write after it moves the ctime past this
  const seen = Date.now();
  let opened;
  try {
    opened = await openRegular(path);
  } catch (error) {
    onError?.(error);
    return undefined;
  }
  const { handle, info } = opened;
  try {
    const head = await readAt(handle, 0, HEAD_BYTES);
    onHead?.(head);
    const tailStart = Math.max(0, info.size - TAIL_BYTES);
    // a small file's tail is in its head: one read
    const tail =
      head.length === info.size && info.size <= HEAD_BYTES
        ? head.subarray(tailStart)
        : await readAt(handle, tailStart, Math.min(info.size, TAIL_BYTES));
    return {
      dev: info.dev,
      ino: info.ino,
      size: info.size,
      mtime_ms: info.mtimeMs,
      ctime_ms: settledCtime(info.ctimeMs, seen),
      head_hash: sha1(head),
      tail_hash: sha1(tail),
    };
  } catch (error) {
    onError?.(error);
    return undefined;
  } finally {
    await handle.close();
  }
}

/**
 * Whether a file's stat is still the one a stamp recorded: a regular file with the same device, inode, size, mtime and
 * ctime, the ctime recorded (settled: `ctime_ms` not `-1`). Every write moves the ctime and no program can set it
 * back, so the file holds the bytes the stamp hashed: it need not be opened (docs/index.md, "Freshness").
 * @param path the file
 * @param stamp what was recorded of it
 * @returns false as well when it cannot be stat-ed now
 */
export function statMatches(path: string, stamp: Omit<FileStamp, 'head_hash' | 'tail_hash'>): boolean {
  if (stamp.ctime_ms < 0) return false;
  let info;
  try {
    info = statSync(path);
  } catch {
    return false;
  }
  return (
    info.isFile() &&
    info.dev === stamp.dev &&
    info.ino === stamp.ino &&
    info.size === stamp.size &&
    info.mtimeMs === stamp.mtime_ms &&
    info.ctimeMs === stamp.ctime_ms
  );
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
    return sha1(await readAt(handle, position, length));
  } finally {
    await handle.close();
  }
}

/**
 * Whether a file, stamped `before` and `now`, only grew in between: the same device and inode, larger, the
 * same first bytes (as many as were hashed then) and the same {@link TAIL_BYTES} bytes before `before.size`,
 * the last of them a `\n` (a read of the bytes after `before.size` starts at a line). Reads at most
 * {@link HEAD_BYTES} + {@link TAIL_BYTES} bytes.
 * @param path the file
 * @param before its stamp then
 * @param now its stamp now (`stampFile`)
 * @returns true when the bytes after `before.size` are all that is new
 */
export async function grewFrom(path: string, before: FileStamp, now: FileStamp): Promise<boolean> {
  if (now.dev !== before.dev || now.ino !== before.ino || now.size <= before.size || before.size === 0) return false;
  try {
    const handle = await open(path, 'r');
    try {
      const head = before.size < HEAD_BYTES ? sha1(await readAt(handle, 0, before.size)) : now.head_hash;
      const tail = await readAt(handle, Math.max(0, before.size - TAIL_BYTES), Math.min(before.size, TAIL_BYTES));
      return head === before.head_hash && sha1(tail) === before.tail_hash && tail.at(-1) === 0x0a;
    } finally {
      await handle.close();
    }
  } catch {
    return false;
  }
}

/** Up to `length` bytes from `position` (fewer when the file ends first). */
async function readAt(handle: FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await handle.read(buffer, 0, length, position);
  return buffer.subarray(0, bytesRead);
}

function sha1(bytes: Buffer): string {
  return createHash('sha1').update(bytes).digest('hex');
}
