import type { Diagnostic } from '../diagnostics/diagnostic.ts';
import { lineTooLong } from '../read/record-decoder.ts';
import { decodeLine } from '../read/decode-line.ts';
import { DEFAULT_MAX_LINE_BYTES, LineDecoder } from '../read/line-decoder.ts';
import { parseLine, type RawRecord } from '../read/parse-line.ts';

/** Options of `decodeStream`. */
export interface DecodeOptions {
  /** Name for diagnostics (a path, or `<stdin>`). */
  file?: string;
  /** Receives a diagnostic for each line that is not a JSON object. */
  onDiagnostic?: (d: Diagnostic) => void;
  /** Cap on one line's bytes; default 64 MiB. */
  maxLineBytes?: number;
  /** How deep nested JSON is kept; default 256. */
  maxDepth?: number;
}

/**
 * Decodes NDJSON (`claude -p --output-format stream-json`) from byte or string chunks split anywhere
 * (inside a line, a `\r\n` pair or a multi-byte character) into one parsed object per line.
 *
 * Bad lines are diagnostics, as in a transcript (`parseLine`), and the stream goes on; a last line
 * without `\n` is decoded when the source ends.
 *
 * @param source chunks of bytes or text
 * @param options name, diagnostics callback, line cap
 * @returns the parsed lines, in order
 */
export async function* decodeStream(
  source: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>,
  options: DecodeOptions = {},
): AsyncIterable<RawRecord> {
  const file = options.file ?? '<stream>';
  const onDiagnostic = options.onDiagnostic ?? (() => {});
  let ready: RawRecord[] = [];
  const decoder = new LineDecoder(
    (buf, start, end, line, byteOffset) => {
      const result = parseLine(
        decodeLine(buf, start, end, file, line, byteOffset, onDiagnostic),
        file,
        line,
        byteOffset,
        options.maxDepth,
      );
      for (const record of result.records) ready.push(record);
      for (const d of result.diagnostics) if (d.code !== 'BLANK_LINE') onDiagnostic(d);
    },
    (line, byteOffset, length) =>
      onDiagnostic(lineTooLong(file, line, byteOffset, length, options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES)),
    options.maxLineBytes,
  );
  for await (const chunk of source) {
    decoder.push(
      typeof chunk === 'string'
        ? Buffer.from(chunk, 'utf8')
        : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength),
    );
    const out = ready;
    ready = [];
    yield* out;
  }
  decoder.flush();
  yield* ready;
}
