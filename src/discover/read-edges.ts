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
    return edgeLines(head, tail, size, 'utf8');
  });
}

/**
 * `readEdges` over the first and last bytes of a file already read (`fileListing` reads it once for all), its lines
 * as byte strings (`latin1`: one character per byte): `romp ls` searches its edges for a few ASCII keys and decodes
 * as UTF-8 only the lines it parses (`utf8Line`), not 16 KiB per file (issue 16: the decoding and the searches of
 * the edges' UTF-8 text were 31 of `romp ls`'s 236 ms CPU over 3,000 sessions).
 * @param first at least the file's first `headBytes` (all of it when smaller)
 * @param last at least its last `tailBytes` (all of it when smaller)
 * @param size the file's size
 * @param headBytes bytes of the start
 * @param tailBytes bytes of the end
 * @returns the lines of both edges, as byte strings, and the file's size
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
    'latin1',
  );
}

/**
 * A line of `edgesIn` (a byte string) as text: its bytes decoded as UTF-8.
 * @param line a byte string (one character per byte)
 * @returns the text
 */
export function utf8Line(line: string): string {
  return Buffer.from(line, 'latin1').toString('utf8');
}

/** The complete lines of a head and a tail (none: the head is the whole file, its last line kept). */
function edgeLines(head: Buffer, tail: Buffer | undefined, size: number, encoding: 'utf8' | 'latin1'): Edges {
  return {
    head: splitLines(head, false, tail === undefined, encoding),
    tail: tail === undefined ? [] : splitLines(tail, true, true, encoding),
    size,
  };
}

function splitLines(buf: Buffer, dropFirst: boolean, keepLast: boolean, encoding: 'utf8' | 'latin1'): string[] {
  const lines = buf.toString(encoding).split('\n');
  if (dropFirst) lines.shift();
  if (!keepLast) lines.pop();
  return lines;
}
