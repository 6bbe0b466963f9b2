import { diagnostic, type Diagnostic } from '../diagnostics/diagnostic.ts';
import { formatCount } from '../text/format-count.ts';
import { splitGlued } from './split-glued.ts';

/** A JSON object read from one transcript line. Unknown fields are kept. */
export type RawRecord = Record<string, unknown>;

/** What one line yields: zero or more records, zero or more diagnostics (never neither). */
export interface LineResult {
  records: RawRecord[];
  diagnostics: Diagnostic[];
}

const BOM = 0xfeff;

/** Default cap on how deep nested JSON is kept (objects and arrays). */
export const DEFAULT_MAX_DEPTH = 256;

/**
 * Parses the text of one transcript line (its `\n` already removed).
 *
 * - A trailing `\r` (CRLF files) and a leading byte-order mark are removed.
 * - A blank line gives `BLANK_LINE` (info).
 * - A JSON object gives one record; other JSON values give `NOT_AN_OBJECT`.
 * - Otherwise recovery is tried: NUL padding (a crashed append) is removed (`NUL_BYTES`), and two
 *   or more objects written on one line by concurrent appends are split at their top-level `}{`
 *   (`GLUED_RECORDS`, one record each); a torn record followed by a whole one keeps the whole one
 *   (`INVALID_JSON` for the torn part). What still fails is `INVALID_JSON`.
 * - Values nested deeper than `maxDepth` are replaced by `{"(truncated)": "…"}` (`TOO_DEEP`): a tree
 *   that deep cannot be written back by `JSON.stringify`, so the model would not stay plain JSON. For the
 *   same reason `-0` becomes `0` and a number too large for a double (`1e999`, read as Infinity) becomes
 *   `null`, as `JSON.stringify` would write them (`NUMBER_REPLACED`).
 *
 * @param text the line's text
 * @param file the file path, for diagnostics
 * @param line 1-based line number
 * @param byteOffset offset of the line's first byte in the file
 * @param maxDepth how deep nested objects and arrays are kept (default 256)
 * @returns the records and diagnostics of the line; every line yields at least one of either
 */
export function parseLine(
  text: string,
  file: string,
  line: number,
  byteOffset: number,
  maxDepth: number = DEFAULT_MAX_DEPTH,
): LineResult {
  const result: LineResult = { records: [], diagnostics: [] };
  parseLineInto(
    text,
    file,
    line,
    byteOffset,
    maxDepth,
    (r) => result.records.push(r),
    (d) => result.diagnostics.push(d),
  );
  return result;
}

/**
 * `parseLine` for the hot path: hands each record (with its line and byte offset) and each diagnostic
 * to a callback instead of building a result per line (a large file has millions of lines).
 * @param text the line's text
 * @param file the file path, for diagnostics
 * @param line 1-based line number
 * @param byteOffset offset of the line's first byte in the file
 * @param maxDepth how deep nested objects and arrays are kept
 * @param onRecord receives each record, with `line` and `byteOffset` as given
 * @param onDiagnostic receives each diagnostic
 */
export function parseLineInto(
  text: string,
  file: string,
  line: number,
  byteOffset: number,
  maxDepth: number,
  onRecord: (record: RawRecord, line: number, byteOffset: number) => void,
  onDiagnostic: (d: Diagnostic) => void,
): void {
  let source = text;
  if (source.charCodeAt(source.length - 1) === 13) source = source.slice(0, -1);
  // a BOM starts line 1, or any line of files joined with `cat`
  if (source.charCodeAt(0) === BOM) source = source.slice(1);
  let value: unknown;
  try {
    value = JSON.parse(source);
  } catch {
    const recovered = recover(source, { file, line, byteOffset });
    for (const record of recovered.records) keep(record, file, line, byteOffset, maxDepth, onRecord, onDiagnostic);
    for (const d of recovered.diagnostics) onDiagnostic(d);
    return;
  }
  if (isObject(value)) keep(value, file, line, byteOffset, maxDepth, onRecord, onDiagnostic);
  else
    onDiagnostic(
      diagnostic('NOT_AN_OBJECT', `line is JSON ${describe(value)}, not an object`, { file, line, byteOffset }),
    );
}

/**
 * What `parseLineInto` does with a line that parsed as an object: cuts and repairs it (`TOO_DEEP`,
 * `NUMBER_REPLACED`), then hands it over.
 * @param record the parsed object; repaired in place
 * @param file the file path, for diagnostics
 * @param line 1-based line number
 * @param byteOffset offset of the line's first byte in the file
 * @param maxDepth how deep nested objects and arrays are kept
 * @param onRecord receives the record
 * @param onDiagnostic receives `TOO_DEEP`, `NUMBER_REPLACED`
 */
export function keep(
  record: RawRecord,
  file: string,
  line: number,
  byteOffset: number,
  maxDepth: number,
  onRecord: (record: RawRecord, line: number, byteOffset: number) => void,
  onDiagnostic: (d: Diagnostic) => void,
): void {
  const found = repairTree(record, maxDepth);
  if ((found & CUT) !== 0)
    onDiagnostic(
      diagnostic('TOO_DEEP', `values nested deeper than ${maxDepth} levels were cut`, { file, line, byteOffset }),
    );
  if ((found & NUMBER) !== 0) {
    onDiagnostic(
      diagnostic(
        'NUMBER_REPLACED',
        'a -0 became 0, a number beyond a double (Infinity) became null, as JSON.stringify writes them',
        { file, line, byteOffset },
      ),
    );
  }
  onRecord(record, line, byteOffset);
}

const CUT = 1;
const NUMBER = 2;

/**
 * In place: cuts every object or array nested deeper than `limit`, and replaces the numbers
 * `JSON.stringify` cannot write back as `JSON.stringify` writes them (`-0` → 0, ±Infinity → null).
 * Returns `CUT | NUMBER` flags of what it did. Plain functions over module state, no closures nor marker
 * object per record: this runs over every record of a large file.
 */
function repairTree(value: Record<string, unknown> | unknown[], limit: number): number {
  walkFound = 0;
  depthLimit = limit;
  visit(value, 0);
  return walkFound;
}

/** What `repairTree` found so far, and the limit it cuts at (one walk at a time: the walk never yields). */
let walkFound = 0;
let depthLimit = 0;

/** What a child of a node at `depth` becomes (the child itself, walked, when nothing is wrong with it). */
function repaired(child: unknown, depth: number): unknown {
  if (typeof child === 'number') {
    if (child === 0 ? 1 / child > 0 : Number.isFinite(child)) return child;
    walkFound |= NUMBER;
    return Number.isFinite(child) ? 0 : null;
  }
  if (typeof child !== 'object' || child === null) return child;
  if (depth + 1 >= depthLimit) {
    walkFound |= CUT;
    return { '(truncated)': `nested deeper than ${depthLimit} levels` };
  }
  visit(child as Record<string, unknown>, depth + 1);
  return child;
}

// plain loops, no iterators
function visit(node: Record<string, unknown> | unknown[], depth: number): void {
  if (Array.isArray(node)) {
    for (let i = 0; i < node.length; i++) {
      const child: unknown = node[i];
      const next = repaired(child, depth);
      if (!Object.is(next, child)) node[i] = next;
    }
    return;
  }
  for (const key in node) {
    const child = node[key];
    const next = repaired(child, depth);
    if (!Object.is(next, child)) node[key] = next;
  }
}

function recover(source: string, place: { file: string; line: number; byteOffset: number }): LineResult {
  const diagnostics: Diagnostic[] = [];
  let text = source;
  if (text.includes('\u0000')) {
    text = text.replaceAll('\u0000', '');
    diagnostics.push(diagnostic('NUL_BYTES', `${source.length - text.length} NUL bytes removed`, place));
  }
  if (text.trim() === '') {
    if (diagnostics.length === 0) diagnostics.push(diagnostic('BLANK_LINE', 'blank line', place));
    return { records: [], diagnostics };
  }
  const parts = splitGlued(text);
  const records: RawRecord[] = [];
  let bad = 0;
  for (const part of parts) {
    const value = tryParse(part);
    if (isObject(value)) {
      records.push(value);
      continue;
    }
    bad++;
    const tail = recoverTail(part);
    if (tail !== undefined) records.push(tail);
  }
  if (parts.length > 1) {
    diagnostics.push(diagnostic('GLUED_RECORDS', `${parts.length} records written on one line, split apart`, place));
  }
  if (bad > 0) {
    const cut = text.length > 80 ? `${text.slice(0, 40)}…${text.slice(-20)}` : text;
    const what =
      parts.length > 1
        ? `${bad} of its ${parts.length} parts are`
        : records.length > 0
          ? 'line starts with a torn record that is'
          : 'line is';
    diagnostics.push(
      diagnostic(
        'INVALID_JSON',
        `${what} not valid JSON (${formatCount(text.length)} chars: ${JSON.stringify(cut)})`,
        place,
      ),
    );
  }
  return { records, diagnostics };
}

/**
 * A torn write followed by a whole record on the same line (a crash, then the next append): the
 * `{"parentUuid":` or `{"type":` from which the rest of the text parses as an object.
 *
 * Linear: one string-aware bracket scan from the end finds the one `{` that can close at the last
 * `}` (read backwards from the end, the quotes and brackets of a whole record are what they are
 * forwards; a `{` further left that also balances would close before the end), and only the text from
 * there is parsed. Trying every marker instead took quadratic time on a line full of them.
 */
function recoverTail(text: string): RawRecord | undefined {
  const at = openingOfLast(text);
  if (at <= 0 || !(text.startsWith('{"parentUuid":', at) || text.startsWith('{"type":', at))) return undefined;
  return parseObject(text.slice(at));
}

/** Where the bracket closed by the text's last `}` opens, scanning back from the end; -1 if none. */
function openingOfLast(text: string): number {
  let depth = 0;
  let inString = false;
  for (let i = text.length - 1; i >= 0; i--) {
    const c = text.charCodeAt(i);
    if (depth === 0 && c !== 125 && c !== 32 && c !== 9 && c !== 10 && c !== 13) return -1; // not a `}` last
    if (c === 34) {
      let slashes = 0;
      while (i - slashes - 1 >= 0 && text.charCodeAt(i - slashes - 1) === 92) slashes++;
      if (slashes % 2 === 0) inString = !inString;
      i -= slashes; // the backslashes escape this quote or each other: no bracket among them
    } else if (inString) continue;
    else if (c === 125 || c === 93) depth++;
    else if (c === 123 || c === 91) {
      depth--;
      if (depth === 0) return c === 123 ? i : -1;
    }
  }
  return -1;
}

/**
 * The object a text parses as, or `undefined` (not JSON, or JSON that is not an object); no diagnostic.
 * @param text JSON text
 * @returns the object or `undefined`
 */
export function parseObject(text: string): RawRecord | undefined {
  const value = tryParse(text);
  return isObject(value) ? value : undefined;
}

function tryParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is RawRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}
