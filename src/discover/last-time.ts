import { withRegular, type OpenedFile } from '../read/with-regular.ts';
import { parseTimestamp } from '../read/parse-timestamp.ts';

/** Where `lastTime` found the last activity of a file. */
export interface LastTime {
  /** Epoch ms. */
  time: number;
  /** `timestamp`: the last line that carries one; `mtime`: none in the bytes read, the file's modification time. */
  from: 'timestamp' | 'mtime';
}

/** Bytes read per step backwards from the end. */
const STEP = 64 * 1024;

/** The most bytes `lastTime` reads back from the end, by default: past them, the file's modification time. */
export const LAST_TIME_BYTES: number = 4 * 1024 * 1024;

/**
 * The last activity in a transcript: the `timestamp` of the last line that has one, read backwards
 * from the end in 64 KiB steps, each byte once, up to `limit` bytes (Claude Code ends a file with
 * lines that carry no time: `custom-title`, `ai-title`, `last-prompt`, `summary`); when those bytes
 * hold none, the file's modification time. Never the time of the head.
 * @param path the transcript, or the caller's open file (`withRegular`)
 * @param limit the most bytes read from the end (default 4 MiB)
 * @returns the time (epoch ms) and where it came from
 * @throws NotRegularFile, or the system error when the file cannot be opened
 */
export async function lastTime(path: string | OpenedFile, limit: number = LAST_TIME_BYTES): Promise<LastTime> {
  return withRegular(path, async ({ handle, info }) => {
    const stop = Math.max(0, info.size - limit);
    // the bytes after the last newline seen so far, kept as chunks (joined once a newline closes them)
    let pending: Buffer[] = [];
    for (let end = info.size; end > stop;) {
      const start = Math.max(stop, end - STEP);
      const chunk = Buffer.alloc(end - start);
      await handle.read(chunk, 0, chunk.length, start);
      end = start;
      const found = lastStamp(chunk, pending);
      if (!Number.isNaN(found.time)) return { time: found.time, from: 'timestamp' };
      pending = found.cut === chunk.length ? pending : [];
      pending.unshift(chunk.subarray(0, found.cut));
    }
    // the first line of the file (or of the window, cut at `limit`: then not a whole line)
    return stop === 0 ? firstLineTime(Buffer.concat(pending), info.mtimeMs) : modified(info.mtimeMs);
  });
}

/**
 * `lastTime` from a file's last bytes already read (`fileListing` reads it once for all), when they
 * hold the answer: a line with a timestamp after their first newline, or the whole file.
 * @param last the file's last bytes
 * @param size the file's size
 * @param mtimeMs its modification time, for a file with no timestamp
 * @returns the time (epoch ms) and where it came from; undefined when earlier bytes must be read (`lastTime`)
 */
export function lastTimeIn(last: Buffer, size: number, mtimeMs: number): LastTime | undefined {
  const found = lastStamp(last, []);
  if (!Number.isNaN(found.time)) return { time: found.time, from: 'timestamp' };
  return last.length < size ? undefined : firstLineTime(last.subarray(0, found.cut), mtimeMs);
}

/**
 * The time of the last line ending in `chunk` that has one, reading its lines from the end (the line
 * after the chunk's last newline continued by `pending`); else NaN, and where the chunk's first,
 * unfinished line ends (`cut`).
 */
function lastStamp(chunk: Buffer, pending: Buffer[]): { time: number; cut: number } {
  let cut = chunk.length;
  let rest = pending;
  for (let nl = chunk.lastIndexOf(10, cut - 1); nl !== -1; nl = cut === 0 ? -1 : chunk.lastIndexOf(10, cut - 1)) {
    const line =
      rest.length === 0 ? chunk.subarray(nl + 1, cut) : Buffer.concat([chunk.subarray(nl + 1, cut), ...rest]);
    rest = [];
    const t = parseTimestamp(timestampText(line.toString('utf8')));
    if (!Number.isNaN(t)) return { time: t, cut: nl };
    cut = nl;
  }
  return { time: Number.NaN, cut };
}

function firstLineTime(line: Buffer, mtimeMs: number): LastTime {
  const t = parseTimestamp(timestampText(line.toString('utf8')));
  return Number.isNaN(t) ? modified(mtimeMs) : { time: t, from: 'timestamp' };
}

/** The file's modification time in whole ms, as timestamps have: `fs.Stats.mtimeMs` carries a fraction. */
function modified(mtimeMs: number): LastTime {
  return { time: Math.floor(mtimeMs), from: 'mtime' };
}

/**
 * The text of the first `"timestamp": "…"` in a line, compact or spaced JSON (`"timestamp" : "…"`),
 * without parsing it. One pass: each search starts where the last one stopped, so a line is read once
 * whatever it holds.
 * @param line one JSONL line
 * @returns the string value, or undefined when the line has none
 */
export function timestampText(line: string): string | undefined {
  const key = '"timestamp"';
  for (let at = line.indexOf(key); at !== -1; at = line.indexOf(key, at)) {
    at = skipSpaces(line, at + key.length);
    if (line[at] !== ':') continue;
    at = skipSpaces(line, at + 1);
    if (line[at] !== '"') continue;
    const end = line.indexOf('"', at + 1);
    if (end === -1) return undefined;
    return line.slice(at + 1, end);
  }
  return undefined;
}

function skipSpaces(line: string, at: number): number {
  while (line[at] === ' ' || line[at] === '\t' || line[at] === '\n' || line[at] === '\r') at++;
  return at;
}
