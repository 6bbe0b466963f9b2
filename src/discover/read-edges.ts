import { withRegular, type OpenedFile } from '../read/with-regular.ts';

/** The complete lines at the start and the end of a file (text, not parsed), and its size in bytes. */
export interface Edges {
  head: string[];
  tail: string[];
  size: number;
}

/**
 * Reads only the first `headBytes` and last `tailBytes` of a JSONL file and returns the complete lines
 * there (a partial line at either window's edge is left out); callers parse only the lines they need.
 * @param path the file, or the caller's open file (`withRegular`)
 * @param headBytes bytes to read from the start
 * @param tailBytes bytes to read from the end
 * @returns the lines of both edges and the file's size
 * @throws NotRegularFile for a FIFO, device or folder (opened non-blocking, never read); the system error when it
 *   cannot be opened
 */
export async function readEdges(
  path: string | OpenedFile,
  headBytes: number = 8 * 1024,
  tailBytes: number = 8 * 1024,
): Promise<Edges> {
  return withRegular(path, async ({ handle, info }) => {
    const { size } = info;
    const whole = size <= headBytes + tailBytes;
    const headLength = whole ? size : headBytes;
    const head = Buffer.alloc(headLength);
    await handle.read(head, 0, headLength, 0);
    const tail = whole ? undefined : Buffer.alloc(tailBytes);
    if (tail !== undefined) await handle.read(tail, 0, tailBytes, size - tailBytes);
    return edgeLines(head, tail, size);
  });
}

/**
 * `readEdges` over the first and last bytes of a file already read (`fileListing` reads it once for all).
 * @param first at least the file's first `headBytes` (all of it when smaller)
 * @param last at least its last `tailBytes` (all of it when smaller)
 * @param size the file's size
 * @param headBytes bytes of the start
 * @param tailBytes bytes of the end
 * @returns the lines of both edges and the file's size
 */
export function edgesIn(
  first: Buffer,
  last: Buffer,
  size: number,
  headBytes: number = 8 * 1024,
  tailBytes: number = 8 * 1024,
): Edges {
  const whole = size <= headBytes + tailBytes;
  return edgeLines(
    whole ? first.subarray(0, size) : first.subarray(0, headBytes),
    whole ? undefined : last.subarray(last.length - tailBytes),
    size,
  );
}

/** The complete lines of a head and a tail (none: the head is the whole file, its last line kept). */
function edgeLines(head: Buffer, tail: Buffer | undefined, size: number): Edges {
  return {
    head: splitLines(head, false, tail === undefined),
    tail: tail === undefined ? [] : splitLines(tail, true, true),
    size,
  };
}

function splitLines(buf: Buffer, dropFirst: boolean, keepLast: boolean): string[] {
  const lines = buf.toString('utf8').split('\n');
  if (dropFirst) lines.shift();
  if (!keepLast) lines.pop();
  return lines;
}
