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
export async function lastTime(path: string | OpenedFile, limit: number = 4 * 1024 * 1024): Promise<LastTime> {
  return withRegular(path, async ({ handle, info }) => {
    const stop = Math.max(0, info.size - limit);
    // the bytes after the last newline seen so far, kept as chunks (joined once a newline closes them)
    let pending: Buffer[] = [];
    for (let end = info.size; end > stop;) {
      const start = Math.max(stop, end - STEP);
      const chunk = Buffer.alloc(end - start);
      await handle.read(chunk, 0, chunk.length, start);
      end = start;
      let cut = chunk.length;
      for (let nl = chunk.lastIndexOf(10, cut - 1); nl !== -1; nl = cut === 0 ? -1 : chunk.lastIndexOf(10, cut - 1)) {
        const line = Buffer.concat([chunk.subarray(nl + 1, cut), ...pending]);
        pending = [];
        const t = parseTimestamp(timestampText(line.toString('utf8')));
        if (!Number.isNaN(t)) return { time: t, from: 'timestamp' };
        cut = nl;
      }
      pending.unshift(chunk.subarray(0, cut));
    }
    // the first line of the file (or of the window, cut at `limit`: then not a whole line)
    if (stop === 0) {
      const t = parseTimestamp(timestampText(Buffer.concat(pending).toString('utf8')));
      if (!Number.isNaN(t)) return { time: t, from: 'timestamp' };
    }
    return { time: info.mtimeMs, from: 'mtime' };
  });
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
