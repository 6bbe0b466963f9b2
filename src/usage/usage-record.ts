import type { RawRecord } from '../read/parse-line.ts';

/**
 * What `countUsage` reads of one transcript line, taken from its bytes without decoding or parsing the
 * rest: the line's top-level object is walked member by member, and only these members are decoded:
 * `type`, `requestId`, `sessionId`, `timestamp`, `isSidechain`, `version`, `uuid`, and of the top-level
 * `message` object its `id`, `model`, `usage` and `stop_reason`. Every other value (the message's
 * `content`, `cwd`, …) is skipped by a scan that jumps from quote to quote (inside a JSON string every
 * `"` is escaped, so an unescaped one ends it) and counts brackets.
 *
 * A line whose `type` is not `"assistant"` is told apart at that member, the rest unread: Claude Code
 * writes `type` before `message` and `toolUseResult`, so a user or progress line costs the walk of its
 * first short members. Those (after `parentUuid`) are mostly the bytes of the line before: a head of the
 * same bytes as the last line's is not walked again (`memo`). (A line with two top-level `type` keys goes
 * by the first that is not `"assistant"`; `JSON.parse` goes by the last: Claude Code writes each key once.)
 *
 * Decoded values are what `JSON.parse` gives for them. The walk gives up (`undefined`: the caller parses
 * the line whole, with its diagnostics) on what it does not handle itself: a line not starting with `{`
 * (a byte-order mark, spaces), a key with an escape, a member not ending within the line, a value of a
 * decoded member that is not valid JSON, nesting within two levels of `maxDepth`, bytes after the object
 * (glued records, NUL padding; trailing spaces and a `\r` pass). The bytes are not checked for UTF-8
 * here (the caller does). Skipped values are not checked for JSON grammar.
 * @param buf the bytes
 * @param start the line's first byte
 * @param end the byte after its last (its `\n` excluded)
 * @param maxDepth the read stage's depth cap
 * @returns the record of the decoded members (an assistant line; every record, and its `message` when an
 *   object, has all the members named above, in that order, `undefined` where the line has none), `null` for a
 *   line that is not an
 *   assistant line, or `undefined` when the line must be parsed whole
 */
export function usageRecord(buf: Buffer, start: number, end: number, maxDepth: number): RawRecord | null | undefined {
  if (buf[start] !== OPEN) return undefined;
  plain = true;
  const top = walkObject(buf, start + 1, end, maxDepth - 1, TOP, TOP_SPANS);
  if (top === NOT_ASSISTANT) return null;
  if (top === -1) return undefined;
  for (let i = top; i < end; i++) if (!isSpace(buf[i] as number)) return undefined;
  if (TOP_SPANS[0] === -1) return null; // no type
  if (!decode(buf, TOP, TOP_SPANS, TOP_VALUES)) return undefined;
  if (TOP_VALUES[0] !== 'assistant') return null;
  let message = TOP_VALUES[1];
  if (message === WALKED) {
    if (!decode(buf, MESSAGE, MESSAGE_SPANS, MESSAGE_VALUES)) return undefined;
    const m = MESSAGE_VALUES;
    message = { id: m[0], model: m[1], usage: m[2], stop_reason: m[3] };
  }
  const t = TOP_VALUES;
  // one shape for every record (a member not there is `undefined`): its readers' loads stay monomorphic
  return {
    type: t[0],
    message,
    requestId: t[2],
    sessionId: t[3],
    timestamp: t[4],
    isSidechain: t[5],
    version: t[6],
    uuid: t[7],
  };
}

const OPEN = 0x7b;
const CLOSE = 0x7d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const FAIL = Symbol('fail');
/** What a `message` object decodes to before its members are (they are in `MESSAGE_SPANS`). */
const WALKED = Symbol('walked');
const NOT_ASSISTANT = -2;

/** The members decoded, by name, as bytes to match keys against. */
type Wanted = ReadonlyArray<readonly [Buffer, string]>;
const wanted = (...names: string[]): Wanted => names.map((n) => [Buffer.from(n), n] as const);
/** `type` first: `walkObject` stops at it. */
const TOP = wanted('type', 'message', 'requestId', 'sessionId', 'timestamp', 'isSidechain', 'version', 'uuid');
const MESSAGE = wanted('id', 'model', 'usage', 'stop_reason');
/** Where each wanted member's value is, `[from, to)` per name (-1: not there), for the line being walked. */
const TOP_SPANS = new Int32Array(TOP.length * 2);
const MESSAGE_SPANS = new Int32Array(MESSAGE.length * 2);
/** Each wanted member's decoded value (`undefined`: not there), for the line being walked. */
const TOP_VALUES = new Array<unknown>(TOP.length).fill(undefined);
const MESSAGE_VALUES = new Array<unknown>(MESSAGE.length).fill(undefined);
const ASSISTANT = Buffer.from('"assistant"');

/**
 * Walks the members of an object whose `{` is just before `i`, noting each wanted member's value span in
 * `spans` (the last of a repeated key, as `JSON.parse` keeps). In the top-level object (`TOP`), a `type`
 * whose value is a plain string other than `"assistant"` ends the walk, and a `message` object is walked
 * in turn, into `MESSAGE_SPANS` (its span then starts at -2); after its first member, a head of the
 * `memo`'s bytes is taken from it, and a head not is noted in it at the first `type` or `message` key.
 * Returns the byte after the closing `}`, -1 to give up, or `NOT_ASSISTANT`.
 */
function walkObject(buf: Buffer, i: number, end: number, limit: number, names: Wanted, spans: Int32Array): number {
  const top = names === TOP;
  spans.fill(-1);
  if (top) recalledAt = -1;
  else usageAt = -1;
  i = skipSpace(buf, i, end);
  if (buf[i] === CLOSE) return i + 1;
  /** At the top level: where the head after the first member starts (-1: not yet there, -2: done with it). */
  let head = -1;
  for (;;) {
    if (buf[i] !== QUOTE) return -1;
    const keyEnd = plainStringEnd(buf, i + 1, end);
    if (keyEnd === -1) return -1;
    const name = nameOf(buf, i + 1, keyEnd - 1, names);
    // called at every line's first `type` or `message` key, so that V8 has seen the call before it optimizes
    if (top && name <= 1 && name !== -1) head = remember(buf, head, i, limit, spans);
    i = skipSpace(buf, keyEnd, end);
    if (buf[i] !== 0x3a) return -1;
    const from = skipSpace(buf, i + 1, end);
    const inner = top && name === 1 && buf[from] === OPEN;
    // a usage object of counts is read as it is walked (`readUsage`), not walked, then parsed
    const usage = !top && name === 2 && buf[from] === OPEN && limit > 3 ? readUsage(buf, from, end, 0) : -1;
    if (usage !== -1) {
      usageAt = from;
      usageValue = readValue;
    }
    const to = inner
      ? walkObject(buf, from + 1, end, limit - 1, MESSAGE, MESSAGE_SPANS)
      : usage !== -1
        ? usage
        : valueEnd(buf, from, end, limit);
    if (to === -1) return -1;
    if (top && name === 0 && !(to - from === ASSISTANT.length && same(buf, from, ASSISTANT)))
      return plainString(buf, from, to) ? NOT_ASSISTANT : -1;
    if (name !== -1) {
      spans[2 * name] = inner ? -2 : from;
      spans[2 * name + 1] = to;
    }
    i = skipSpace(buf, to, end);
    if (buf[i] === CLOSE) return i + 1;
    if (buf[i] !== 0x2c) return -1;
    i = skipSpace(buf, i + 1, end);
    if (top && head === -1) {
      const after = recall(buf, i, end, limit, spans);
      if (after === -1) head = i;
      else {
        head = -2;
        i = after;
      }
    }
  }
}

/**
 * The head of the last line walked: the bytes from the end of its first top-level member (`parentUuid`)
 * to its first `type` or `message` key, and where the wanted members among them are. Claude Code writes
 * the same head on line after line of a session (`isSidechain`, `userType`, `cwd`, `sessionId`,
 * `version`, `gitBranch`, `slug`): a line whose bytes there are the same is not walked there again (one
 * `Buffer.compare`), its members are where the memo says, and their values as decoded before.
 */
const memo = {
  bytes: Buffer.allocUnsafe(4096),
  /** 0: none. */
  length: 0,
  limit: 0,
  /** As `TOP_SPANS`, from the head's start. */
  spans: new Int32Array(TOP.length * 2),
  /** Each member's decoded value (`NONE`: not decoded yet). */
  values: new Array<unknown>(TOP.length),
};
const NONE = Symbol('none');
/** Where the line being walked took its head from the memo (-1: it did not). */
let recalledAt = -1;

/** Notes `[from, to)` of the line being walked as the memo's head (`from` -1 or -2: nothing to note); gives -2. */
function remember(buf: Buffer, from: number, to: number, limit: number, spans: Int32Array): number {
  if (from < 0) return -2;
  memo.length = to - from <= memo.bytes.length ? to - from : 0;
  if (memo.length === 0) return -2;
  buf.copy(memo.bytes, 0, from, to);
  memo.limit = limit;
  for (let k = 0; k < TOP.length; k++) {
    const at = spans[2 * k] as number;
    memo.spans[2 * k] = at >= from ? at - from : -1;
    memo.spans[2 * k + 1] = at >= from ? (spans[2 * k + 1] as number) - from : -1;
    memo.values[k] = NONE;
  }
  return -2;
}

/** When the bytes at `i` are the memo's head: notes its members in `spans` and gives the byte after it; else -1. */
function recall(buf: Buffer, i: number, end: number, limit: number, spans: Int32Array): number {
  const length = memo.length;
  if (
    length === 0 ||
    i + length > end ||
    limit !== memo.limit ||
    buf.compare(memo.bytes, 0, length, i, i + length) !== 0
  )
    return -1;
  for (let k = 0; k < TOP.length; k++) {
    const at = memo.spans[2 * k] as number;
    if (at === -1) continue;
    spans[2 * k] = at + i;
    spans[2 * k + 1] = (memo.spans[2 * k + 1] as number) + i;
  }
  recalledAt = i;
  return i + length;
}

/** Where the line's `message.usage` read by `readUsage` starts (-1: none), and what it read. */
let usageAt = -1;
let usageValue: unknown;
/** What the last `readUsage` read. */
let readValue: unknown;

/** The keys `readUsage` reads (Claude Code 1.0 to 2.1's): any other is left to `JSON.parse`. */
const USAGE_KEYS = wanted(
  'input_tokens',
  'cache_creation_input_tokens',
  'cache_read_input_tokens',
  'cache_creation',
  'ephemeral_5m_input_tokens',
  'ephemeral_1h_input_tokens',
  'output_tokens',
  'service_tier',
  'inference_geo',
  'server_tool_use',
  'web_search_requests',
  'web_fetch_requests',
  'iterations',
  'speed',
);

/**
 * Reads a usage object whose `{` is at `i` as `JSON.parse` would give it, into `readValue`, with no
 * text decoded but its plain strings: the keys of `USAGE_KEYS` (written with no space), each holding a
 * whole number of at most 15 digits (exact as a double), a plain string, `null`, `true`, `false`, `[]`,
 * or (at the top only) such an object (the caller asks only where the walk's cap allows that nesting).
 * Gives the byte after its `}`, or -1 for anything else (a fraction, a sign, an exponent, a leading zero,
 * a space, an escape, an unknown key, deeper nesting): the caller then walks and parses it as any value.
 */
function readUsage(buf: Buffer, i: number, end: number, depth: number): number {
  const into: Record<string, unknown> = {};
  if (buf[++i] === CLOSE) {
    readValue = into;
    return i + 1;
  }
  for (;;) {
    if (buf[i] !== QUOTE) return -1;
    const keyEnd = plainStringEnd(buf, i + 1, end);
    const k = keyEnd === -1 ? -1 : nameOf(buf, i + 1, keyEnd - 1, USAGE_KEYS);
    if (k === -1 || buf[keyEnd] !== 0x3a || keyEnd + 6 > end) return -1; // a literal's bytes are within the line
    i = keyEnd + 1;
    const c = buf[i] as number;
    let v: unknown;
    if (c >= 0x30 && c <= 0x39) {
      let n = c - 0x30;
      for (i++; c !== 0x30 && i < end && isDigit(buf[i] as number) && n < 1e14; i++)
        n = n * 10 + (buf[i] as number) - 0x30;
      v = n;
    } else if (c === QUOTE) {
      const to = plainStringEnd(buf, i + 1, end);
      if (to === -1) return -1;
      v = interned(buf, i + 1, to - 1, LAST_USAGE, k);
      if (v === FAIL) return -1;
      i = to;
    } else if (c === OPEN && depth === 0) {
      i = readUsage(buf, i, end, 1);
      if (i === -1) return -1;
      v = readValue;
    } else if (c === 0x6e && same(buf, i, NULL)) {
      v = null;
      i += 4;
    } else if (c === 0x74 && same(buf, i, TRUE)) {
      v = true;
      i += 4;
    } else if (c === 0x66 && same(buf, i, FALSE)) {
      v = false;
      i += 5;
    } else if (c === 0x5b && buf[i + 1] === 0x5d) {
      v = [];
      i += 2;
    } else return -1;
    if (i >= end) return -1;
    into[(USAGE_KEYS[k] as readonly [Buffer, string])[1]] = v;
    if (buf[i] === CLOSE) {
      readValue = into;
      return i + 1;
    }
    if (buf[i] !== 0x2c) return -1;
    i++;
  }
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** Decodes the noted members into `into`, by index (`undefined`: not there); `false` when one is not valid JSON. */
function decode(buf: Buffer, names: Wanted, spans: Int32Array, into: unknown[]): boolean {
  const top = names === TOP;
  const memoAt = top ? recalledAt : -1;
  const last = top ? LAST_TOP : LAST_MESSAGE;
  for (let k = 0; k < names.length; k++) {
    const from = spans[2 * k] as number;
    into[k] = undefined;
    if (from === -1) continue;
    const recalled = memoAt !== -1 && memo.spans[2 * k] !== -1 && from === (memo.spans[2 * k] as number) + memoAt;
    let v = recalled ? memo.values[k] : NONE;
    if (v === NONE) {
      const to = spans[2 * k + 1] as number;
      v =
        from === -2
          ? WALKED
          : from === usageAt && !top
            ? usageValue
            : last[k] !== undefined && buf[from] === QUOTE
              ? interned(buf, from + 1, to - 1, last, k)
              : value(buf, from, to);
    }
    // only a plain value is shared between records; stored on every recalled member (most lines), so that V8
    // has seen the store before it optimizes (the first decoding after a new head is once per file or so)
    if (recalled) memo.values[k] = typeof v !== 'object' || v === null ? v : NONE;
    if (v === FAIL) return false;
    // a number or an object `JSON.parse` gave may be one `keep` replaces (-0, ±Infinity): `usageRecordPlain`
    if (typeof v === 'number' || (typeof v === 'object' && v !== null && !(from === usageAt && !top))) plain = false;
    into[k] = v;
  }
  return true;
}

/**
 * Whether the last record `usageRecord` gave holds only values `JSON.stringify` writes back as read
 * (strings, booleans, `null`, `readUsage`'s whole numbers): then it holds no `-0` or ±Infinity for `keep`
 * to replace (`NUMBER_REPLACED`), and its reader need not walk it to find one.
 * @returns true when no member's value is a number or an object `JSON.parse` gave
 */
export function usageRecordPlain(): boolean {
  return plain;
}
let plain = true;

/**
 * The last string decoded for a member whose values repeat from line to line (`message.id` and `requestId`
 * on the lines of one response, `model`, `stop_reason`, the usage's `service_tier`…), by the member's
 * index (`undefined`: a member not kept, `''`: none yet): a value of the same bytes is that string, not
 * decoded again. Only ASCII strings are kept (their bytes are their UTF-16 code units).
 */
const LAST_TOP: Array<string | undefined> = TOP.map(([, n]) => (n === 'requestId' ? '' : undefined));
const LAST_MESSAGE: Array<string | undefined> = MESSAGE.map(([, n]) => (n === 'usage' ? undefined : ''));
const LAST_USAGE: Array<string | undefined> = USAGE_KEYS.map(() => '');

/** The plain string of bytes `[from, to)` (its quotes excluded), `last[k]` when it has those bytes, else
 * decoded (`FAIL` when it is not plain) and kept in `last[k]` when ASCII. */
function interned(buf: Buffer, from: number, to: number, last: Array<string | undefined>, k: number): unknown {
  const kept = last[k] as string;
  if (kept.length === to - from) {
    let i = 0;
    while (i < kept.length && kept.charCodeAt(i) === buf[from + i]) i++;
    if (i === kept.length) return kept;
  }
  if (!plainString(buf, from - 1, to + 1)) return value(buf, from - 1, to + 1);
  const text = buf.toString('utf8', from, to);
  if (text.length === to - from) last[k] = text;
  return text;
}

function same(buf: Buffer, from: number, bytes: Buffer): boolean {
  for (let i = 0; i < bytes.length; i++) if (bytes[i] !== buf[from + i]) return false;
  return true;
}

function nameOf(buf: Buffer, from: number, to: number, names: Wanted): number {
  for (let k = 0; k < names.length; k++) {
    const bytes = (names[k] as readonly [Buffer, string])[0];
    if (bytes.length === to - from && same(buf, from, bytes)) return k;
  }
  return -1;
}

/** Whether `[from, to)` is a string with no escape and no control character (its bytes are its text). */
function plainString(buf: Buffer, from: number, to: number): boolean {
  if (to - from < 2 || buf[from] !== QUOTE || buf[to - 1] !== QUOTE) return false;
  for (let i = from + 1; i < to - 1; i++) if ((buf[i] as number) < 0x20 || buf[i] === BACKSLASH) return false;
  return true;
}

/** A decoded member's value as `JSON.parse` gives it, or `FAIL`. */
function value(buf: Buffer, from: number, to: number): unknown {
  const first = buf[from];
  if (first === QUOTE) {
    if (to - from === ASSISTANT.length && same(buf, from, ASSISTANT)) return 'assistant';
    if (plainString(buf, from, to)) return buf.toString('utf8', from + 1, to - 1);
  } else if (to - from === 4 && first === 0x74 && same(buf, from, TRUE)) return true;
  else if (to - from === 5 && first === 0x66 && same(buf, from, FALSE)) return false;
  else if (to - from === 4 && first === 0x6e && same(buf, from, NULL)) return null;
  try {
    return JSON.parse(buf.toString('utf8', from, to)) as unknown;
  } catch {
    return FAIL;
  }
}
const TRUE = Buffer.from('true');
const FALSE = Buffer.from('false');
const NULL = Buffer.from('null');

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0a;
}

function skipSpace(buf: Buffer, i: number, end: number): number {
  while (i < end && isSpace(buf[i] as number)) i++;
  return i;
}

/** The byte after the `"` closing a key whose text starts at `i`: -1 if it holds a `\` or does not end. */
function plainStringEnd(buf: Buffer, i: number, end: number): number {
  for (; i < end; i++) {
    const c = buf[i];
    if (c === QUOTE) return i + 1;
    if (c === BACKSLASH) return -1;
  }
  return -1;
}

/**
 * The byte after the JSON value starting at `i` (for a scalar: the `,` or `}` after it), or -1 if it
 * does not end before `end` or nests `limit` levels deep.
 */
function valueEnd(buf: Buffer, i: number, end: number, limit: number): number {
  let depth = 0;
  while (i < end) {
    const c = buf[i] as number;
    if (c === QUOTE) {
      i = stringEnd(buf, i + 1, end);
      if (i === -1 || depth === 0) return i;
      continue;
    }
    if (c === OPEN || c === 0x5b) {
      if (++depth >= limit) return -1;
    } else if (c === CLOSE || c === 0x5d) {
      if (depth === 0) return i;
      if (--depth === 0) return i + 1;
    } else if (c === 0x2c && depth === 0) return i;
    i++;
  }
  return -1;
}

/**
 * Bytes of a string scanned one by one before `stringEnd` jumps to its next quote with `indexOf`: a uuid's 36
 * bytes, a path's, a text's are most of a line's, and a jump cost less than a byte loop over them (16 against
 * 64: `usageRecord` over the bench's 194,200 lines 0.87-0.98x the time, medians of 20 alternating rounds).
 */
const NEAR_BYTES = 16;

/**
 * The byte after the `"` closing the string whose text starts at `i`, or -1. Scans byte by byte (an escape's
 * second byte skipped) where quotes are near, as in code with escaped quotes, and jumps to the next quote
 * with `indexOf` past `NEAR_BYTES` without one (an escaped quote follows an odd run of backslashes).
 */
function stringEnd(buf: Buffer, i: number, end: number): number {
  for (;;) {
    const near = Math.min(end, i + NEAR_BYTES);
    for (; i < near; i++) {
      const c = buf[i];
      if (c === QUOTE) return i + 1;
      if (c === BACKSLASH) i++;
    }
    if (i >= end) return -1;
    const q = buf.indexOf(QUOTE, i);
    if (q === -1 || q >= end) return -1;
    let slashes = 0;
    while (buf[q - 1 - slashes] === BACKSLASH) slashes++;
    if ((slashes & 1) === 0) return q + 1;
    i = q + 1;
  }
}
