/**
 * The parse floor every bench compares with: read the bytes as romp reads them (system calls on this thread, one
 * reused buffer), split lines, `JSON.parse` each line; nothing else.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { LineDecoder } from '../src/read/line-decoder.ts';

const FLOOR_BUFFER = Buffer.allocUnsafe(1024 * 1024);

/** The floor: split lines and `JSON.parse` each; with `keep`, also hold every parsed value (the cost of retention
 * alone). */
export function floor(path: string, keep = false): Promise<number> {
  const kept: unknown[] = [];
  const decoder = new LineDecoder(
    (buf, start, end) => {
      try {
        const value: unknown = JSON.parse(buf.toString('utf8', start, end));
        if (keep) kept.push(value);
      } catch {
        // the floor only measures; romp reports bad lines
      }
    },
    () => {},
  );
  readAsRomp(path, (chunk) => decoder.push(chunk));
  decoder.flush();
  return Promise.resolve(kept.length);
}

/** Reads a file as romp reads it (`readChunks`): system calls on this thread, one buffer for every file. */
export function readAsRomp(path: string, push: (chunk: Buffer) => void): void {
  const fd = openSync(path, 'r');
  for (;;) {
    const bytesRead = readSync(fd, FLOOR_BUFFER, 0, FLOOR_BUFFER.length, null);
    if (bytesRead === 0) break;
    push(bytesRead === FLOOR_BUFFER.length ? FLOOR_BUFFER : FLOOR_BUFFER.subarray(0, bytesRead));
  }
  closeSync(fd);
}
