import { isUtf8 } from 'node:buffer';
import { diagnostic, type Diagnostic, type OnDiagnostic } from '../diagnostics/diagnostic.ts';

/**
 * Decodes one line's bytes as UTF-8. Bytes that are not valid UTF-8 are replaced with U+FFFD, as any
 * decoder does, and reported (`INVALID_UTF8`, warning) instead of passing unnoticed. Only a line whose
 * text holds U+FFFD can have had bad bytes, so only such a line's bytes are checked (`buffer.isUtf8`);
 * for the others, the search is nearly free (a text of one-byte characters cannot hold U+FFFD).
 * @param buf the bytes
 * @param start the line's first byte
 * @param end the byte after its last
 * @param file the file path, for the diagnostic
 * @param line 1-based line number
 * @param byteOffset offset of the line's first byte
 * @param onDiagnostic receives `INVALID_UTF8`
 * @returns the line's text
 */
export function decodeLine(
  buf: Buffer,
  start: number,
  end: number,
  file: string,
  line: number,
  byteOffset: number,
  onDiagnostic: OnDiagnostic,
): string {
  // arguments, not a place object: this runs for every line of every file
  const text = buf.toString('utf8', start, end);
  if (text.includes('\uFFFD') && !isUtf8(buf.subarray(start, end))) {
    onDiagnostic(invalidUtf8(file, line, byteOffset));
  }
  return text;
}

/**
 * The `INVALID_UTF8` diagnostic of a line.
 * @param file the file path
 * @param line 1-based line number
 * @param byteOffset offset of the line's first byte
 * @returns the diagnostic (warning)
 */
export function invalidUtf8(file: string, line: number, byteOffset: number): Diagnostic {
  return diagnostic('INVALID_UTF8', 'bytes that are not UTF-8 were replaced with U+FFFD', { file, line, byteOffset });
}
