/**
 * The bytes of a line the model never reads, found before the line is decoded: the value of a
 * `toolUseResult` key (the harness's own copy of a tool's output, 37–45 % of a real transcript's bytes)
 * and the `data` of a progress row (11–17 %). The read stage can then decode and parse the line without
 * them (`ReadOptions.skipUnread`).
 *
 * Found by markers: inside a JSON string every `"` is escaped, so the bytes `,"toolUseResult":` and
 * `"type":"progress","data":` (with unescaped quotes) can only be keys. Such a key is taken only when it
 * sits at depth 1, that is when the bytes after its value close exactly one object at the line's end;
 * its value's end is found by a scan that tracks strings (jumping from quote to quote), escapes and
 * bracket depth; a `toolUseResult` key that is not at depth 1 (inside an agent's progress `data`) leaves
 * the line to the progress marker. A value that does not end within the line, or nests deeper than `maxDepth`, is not
 * taken, so the line is parsed whole and reports what it reports today.
 *
 * Source: Claude Code 1.x–2.1 write `toolUseResult` on user lines that carry a `tool_result`, and
 * progress rows as `{"parentUuid":…,"type":"progress","data":{…},…}`.
 */

/** A span of a line's bytes to leave out: `[from, to)`, from the `,` before the key to the value's end. */
export interface Unread {
  from: number;
  to: number;
  /** Where the value itself starts (the byte after the key's `:`). */
  value: number;
}

const TOOL_USE_RESULT = Buffer.from(',"toolUseResult":');
const PROGRESS = Buffer.from('"type":"progress"');
const PROGRESS_DATA = Buffer.from('"type":"progress","data":');

const MESSAGE = Buffer.from('"message"');
const CONTENT = Buffer.from('"content"');

/**
 * The span of `buf[start, end)` to skip, or `undefined` when the line has none (or none that is safe).
 * @param buf the bytes
 * @param start the line's first byte
 * @param end the byte after its last
 * @param maxDepth the read stage's depth cap: a value nested near it is not skipped
 * @param content rather the `content` of the line's top-level `message`, when it has one (for readers of
 *   usage only: an assistant line's text, thinking and tool calls are most of its bytes)
 * @returns the span, or `undefined`
 */
export function findUnread(
  buf: Buffer,
  start: number,
  end: number,
  maxDepth: number,
  content = false,
): Unread | undefined {
  const line = buf.subarray(start, end);
  const found = content ? messageContent(line, maxDepth) : undefined;
  if (found !== undefined) return { from: start + found.from, to: start + found.to, value: start + found.value };
  return (
    spanAt(line, line.indexOf(TOOL_USE_RESULT), 0, TOOL_USE_RESULT.length, maxDepth, start) ??
    spanAt(line, line.indexOf(PROGRESS_DATA), PROGRESS.length, PROGRESS_DATA.length, maxDepth, start)
  );
}

/**
 * The span of the value after a marker found at `at` (-1: not found), from `at + cut` (the `,` before
 * the key) to the value's end, when the value ends in the line and the rest closes the line's object;
 * else `undefined`, and the next marker is tried: a progress row whose `data` holds a message with its
 * own `toolUseResult` (an agent's progress) has that key at depth 3, not 1, and its `data` is skipped.
 */
function spanAt(
  line: Buffer,
  at: number,
  cut: number,
  length: number,
  maxDepth: number,
  start: number,
): Unread | undefined {
  if (at === -1) return undefined;
  const to = valueEnd(line, at + length, maxDepth);
  if (to === -1 || !closesOne(line, to)) return undefined;
  return { from: start + at + cut, to: start + to, value: start + at + length };
}

/**
 * The `content` member of the line's top-level `message` object: the members before it are walked (their
 * values skipped by `valueEnd`), so each byte is read at most twice. The span takes the `,` before the
 * member, or the one after it when it is the first. `undefined` when the line is not an object of plain
 * (unescaped) keys up to there, or has no such member.
 */
function messageContent(line: Buffer, limit: number): Unread | undefined {
  let i = skipSpace(line, 0); // at a `{`, or at the `,` after a member
  if (line[i] !== 0x7b) return undefined;
  let depth = 1;
  let first = true;
  for (;;) {
    const keyStart = skipSpace(line, i + 1);
    if (line[keyStart] !== 0x22) return undefined;
    const keyEnd = stringEnd(line, keyStart + 1);
    if (keyEnd === -1) return undefined;
    const key = depth === 1 ? MESSAGE : CONTENT;
    const hit = keyEnd - keyStart === key.length && line.compare(key, 0, key.length, keyStart, keyEnd) === 0;
    const colon = skipSpace(line, keyEnd);
    if (line[colon] !== 0x3a) return undefined;
    const value = skipSpace(line, colon + 1);
    if (hit && depth === 1) {
      if (line[value] !== 0x7b) return undefined;
      [depth, first, i] = [2, true, value]; // into the message: its members come next
      continue;
    }
    const end = valueEnd(line, value, limit - depth);
    if (end === -1) return undefined;
    const next = skipSpace(line, end);
    if (hit)
      return first ? { from: keyStart, to: line[next] === 0x2c ? next + 1 : end, value } : { from: i, to: end, value };
    if (line[next] !== 0x2c) return undefined;
    [first, i] = [false, next];
  }
}

function skipSpace(line: Buffer, i: number): number {
  while (i < line.length && (line[i] === 0x20 || line[i] === 0x09 || line[i] === 0x0d || line[i] === 0x0a)) i++;
  return i;
}

/**
 * The byte after the JSON value starting at `i`, or -1 if it does not end in `line` or would be cut for
 * its depth (a value of a record's key nesting `limit` levels is `TOO_DEEP`: then the line is parsed whole).
 */
function valueEnd(line: Buffer, i: number, limit: number): number {
  let depth = 0;
  while (i < line.length) {
    const c = line[i] as number;
    if (c === 0x22) {
      i = stringEnd(line, i + 1);
      if (i === -1 || depth === 0) return i;
      continue;
    }
    if (c === 0x7b || c === 0x5b) {
      if (++depth >= limit) return -1;
    } else if (c === 0x7d || c === 0x5d) {
      if (depth === 0) return i; // a scalar closed by its object
      if (--depth === 0) return i + 1;
    } else if (c === 0x2c && depth === 0) return i; // a scalar before the next key
    i++;
  }
  return -1;
}

/**
 * The byte after the `"` that closes the string whose text starts at `i`, or -1. Jumps from quote to
 * quote with `indexOf` (an escaped quote is one after an odd run of backslashes).
 */
function stringEnd(line: Buffer, i: number): number {
  for (;;) {
    const q = line.indexOf(0x22, i);
    if (q === -1) return -1;
    let slashes = 0;
    while (line[q - 1 - slashes] === 0x5c) slashes++;
    if ((slashes & 1) === 0) return q + 1;
    i = q + 1;
  }
}

/** Whether the bytes from `i` close exactly one object, at the line's last byte (a `\r` or spaces may follow). */
function closesOne(line: Buffer, i: number): boolean {
  let depth = 0;
  while (i < line.length) {
    const c = line[i] as number;
    if (c === 0x22) {
      i = stringEnd(line, i + 1);
      if (i === -1) return false;
      continue;
    }
    if (c === 0x7b || c === 0x5b) depth++;
    else if (c === 0x7d || c === 0x5d) {
      if (--depth < 0) return c === 0x7d && onlySpace(line, i + 1);
    }
    i++;
  }
  return false;
}

function onlySpace(line: Buffer, i: number): boolean {
  for (; i < line.length; i++) {
    const c = line[i];
    if (c !== 0x0d && c !== 0x20 && c !== 0x09) return false;
  }
  return true;
}
