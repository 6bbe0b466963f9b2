import { openRegular } from '../read/open-regular.ts';

/** The complete lines at the start and the end of a file (text, not parsed), and what was learned of its size. */
export interface Edges {
  head: string[];
  tail: string[];
  size: number;
  /** Exact line count when the whole file was read, else estimated from the average line length read. */
  lines: number;
  linesEstimated: boolean;
}

/**
 * Reads only the first `headBytes` and last `tailBytes` of a JSONL file and returns the complete lines
 * there (a partial line at either window's edge is left out); callers parse only the lines they need.
 * @param path the file
 * @param headBytes bytes to read from the start
 * @param tailBytes bytes to read from the end
 * @returns the parsed edges
 * @throws NotRegularFile for a FIFO, device or folder (opened non-blocking, never read); the system error when it cannot be opened
 */
export async function readEdges(path: string, headBytes: number = 8 * 1024, tailBytes: number = 8 * 1024): Promise<Edges> {
  const { handle, info } = await openRegular(path);
  try {
    const { size } = info;
    const whole = size <= headBytes + tailBytes;
    const headLength = whole ? size : headBytes;
    const head = Buffer.alloc(headLength);
    await handle.read(head, 0, headLength, 0);
    const tail = whole ? Buffer.alloc(0) : Buffer.alloc(tailBytes);
    if (!whole) await handle.read(tail, 0, tailBytes, size - tailBytes);
    const headLines = splitLines(head, false, whole);
    const tailLines = whole ? [] : splitLines(tail, true, true);
    const newlines = count(head) + (whole ? 0 : count(tail));
    const lines = whole
      ? newlines + (size > 0 && head[size - 1] !== 10 ? 1 : 0)
      : Math.round(size / ((headLength + tailBytes) / Math.max(1, newlines)));
    return { head: headLines, tail: tailLines, size, lines, linesEstimated: !whole };
  } finally {
    await handle.close();
  }
}

function splitLines(buf: Buffer, dropFirst: boolean, keepLast: boolean): string[] {
  const lines = buf.toString('utf8').split('\n');
  if (dropFirst) lines.shift();
  if (!keepLast) lines.pop();
  return lines;
}

function count(buf: Buffer): number {
  let n = 0;
  for (let i = buf.indexOf(10); i !== -1; i = buf.indexOf(10, i + 1)) n++;
  return n;
}
