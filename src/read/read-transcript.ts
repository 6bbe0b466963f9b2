import { closeSync, readSync } from 'node:fs';
import { diagnostic, type Diagnostic, type OnDiagnostic } from '../diagnostics/diagnostic.ts';
import { openRegularSync } from './open-regular.ts';
import type { RawRecord } from './parse-line.ts';
import { RecordDecoder, type RecordDecodeOptions, type OnRecord } from './record-decoder.ts';
import { errorReason } from '../diagnostics/error-reason.ts';

export type { OnRecord } from './record-decoder.ts';

/** Where a record came from: 1-based line number and the byte offset of that line in its file. */
export interface LinePlace {
  line: number;
  byteOffset: number;
}

/** Options of the read stage: how bytes are decoded (`RecordDecodeOptions`), and the size of each read. */
export interface ReadOptions extends RecordDecodeOptions {
  /** Size of each read from the file in bytes. Default 1 MiB. */
  chunkBytes?: number;
}

/** Totals of one file read. */
export interface ReadStats {
  /** Lines in the file (a last line without `\n` counts). */
  lines: number;
  /** Bytes in the file. */
  bytes: number;
}

const DEFAULT_CHUNK_BYTES = 1024 * 1024;

/**
 * The read stage, streaming: reads a transcript file by bytes and hands over each record and each
 * diagnostic as it goes, never holding the file as one string.
 *
 * Every line yields at least one record or one diagnostic (see `parseLine` for the rules: BOM, CRLF,
 * glued records, NUL padding, blank and invalid lines). Lines over `maxLineBytes` give `LINE_TOO_LONG`.
 * A file that cannot be opened or read gives `FILE_UNREADABLE` and whatever was read before; so does a
 * path that is not a regular file (a FIFO, `/dev/zero`, a folder: never opened blocking, never read). A file that
 * is UTF-16 (a byte-order mark, or a first `{` of two bytes) is converted to UTF-8 as it is read
 * (`UTF16_FILE`, info).
 * Never throws for a file's content or absence.
 *
 * @param path the file
 * @param onRecord receives each record with its line and byte offset
 * @param onDiagnostic receives each diagnostic
 * @param options `maxLineBytes`, `chunkBytes`
 * @returns the number of lines and bytes read
 */
export async function readTranscriptLines(
  path: string,
  onRecord: OnRecord,
  onDiagnostic: OnDiagnostic,
  options: ReadOptions = {},
): Promise<ReadStats> {
  const decoder = new RecordDecoder(path, onRecord, onDiagnostic, options);
  if (await readChunks(path, (chunk) => decoder.push(chunk), onDiagnostic, options.chunkBytes)) decoder.end();
  return { lines: decoder.lineCount, bytes: decoder.bytes };
}

/**
 * Reads a file from its start in chunks of `chunkBytes` (default 1 MiB), handing each over as it is
 * read. A file that cannot be opened or read, or a path that is not a regular file (never opened
 * blocking), gives `FILE_UNREADABLE` after whatever was read before. Never throws.
 *
 * The open, `fstat`, reads and close are system calls on the calling thread (`openRegularSync`,
 * `readSync`), not trips through libuv's thread pool: over the 132 corpus files those trips cost 40 % of
 * a warm parse's CPU (issue 16). After each full chunk the event loop runs what waits on it, so a large
 * file blocks it for one chunk's decoding at a time, as the promised reads did.
 * @param path the file
 * @param onChunk receives each chunk; the buffer is reused for the next read
 * @param onDiagnostic receives `FILE_UNREADABLE`
 * @param chunkBytes size of each read
 * @returns whether the whole file was read
 */
export async function readChunks(
  path: string,
  onChunk: (chunk: Buffer) => void,
  onDiagnostic: OnDiagnostic,
  chunkBytes: number = DEFAULT_CHUNK_BYTES,
): Promise<boolean> {
  let fd: number | undefined;
  let buffer: Buffer | undefined;
  try {
    ({ fd } = openRegularSync(path));
    buffer = takeBuffer(Math.max(2, chunkBytes));
    for (;;) {
      const bytesRead = readSync(fd, buffer, 0, buffer.length, null);
      if (bytesRead === 0) break;
      onChunk(bytesRead === buffer.length ? buffer : buffer.subarray(0, bytesRead));
      // after a full chunk, what else waits on the event loop runs before the next (a read takes microseconds)
      if (bytesRead === buffer.length) await new Promise<void>((resolve) => setImmediate(resolve));
    }
    return true;
  } catch (error) {
    onDiagnostic(diagnostic('FILE_UNREADABLE', `cannot read: ${errorReason(error)}`, { file: path }));
    return false;
  } finally {
    if (buffer !== undefined && spare.length < 4) spare.push(buffer);
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Read buffers not in use, for the next file: a fresh 1 MiB buffer per file cost 404–521 ms CPU over
 * 1,584 files against 75–117 ms reused (issue 16). Lines never keep a chunk's bytes (the line decoder
 * copies what it holds over), so a buffer is free again once its file is read; reads that run at the
 * same time each take their own.
 */
const spare: Buffer[] = [];

function takeBuffer(size: number): Buffer {
  const i = spare.findIndex((b) => b.length === size);
  if (i === -1) return Buffer.allocUnsafe(size);
  const [buffer] = spare.splice(i, 1);
  return buffer as Buffer;
}

/** A record with its place in the file. */
export interface ReadRecord extends LinePlace {
  record: RawRecord;
}

/** The whole result of reading one file. */
export interface ReadResult extends ReadStats {
  records: ReadRecord[];
  diagnostics: Diagnostic[];
}

/**
 * The read stage, collected: every record and diagnostic of one transcript file, in file order.
 *
 * ```ts
 * const { records, diagnostics, lines } = await readTranscript('~/.claude/projects/p/s.jsonl');
 * ```
 *
 * @param path the file
 * @param options as for `readTranscriptLines`
 * @returns records and diagnostics in file order, with line and byte totals
 */
export async function readTranscript(path: string, options: ReadOptions = {}): Promise<ReadResult> {
  const records: ReadRecord[] = [];
  const diagnostics: Diagnostic[] = [];
  const stats = await readTranscriptLines(
    path,
    (record, line, byteOffset) => records.push({ record, line, byteOffset }),
    (d) => diagnostics.push(d),
    options,
  );
  return { records, diagnostics, ...stats };
}
