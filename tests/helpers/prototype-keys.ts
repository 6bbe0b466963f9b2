/**
 * The prototype-key property: a transcript (and the same records as stream messages) with one string
 * field set to `__proto__`, `constructor`, `prototype`, `toString` or `hasOwnProperty` leaves
 * `Object.prototype` as it was, and every output (the session in both views, its outline, the usage
 * report, the stream session and its `ignored` counts) equals that of the same input with a plain word
 * of the same length in that field (byte offsets hold), with the word replaced back (modulo what is
 * hashed from it: the colour, turn ids).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { timeFormat } from '../../src/cli/format-time.ts';
import { formatOutline } from '../../src/cli/format-outline.ts';
import { parseSession } from '../../src/session/parse-session.ts';
import { reduceStream, streamSession, type StreamState } from '../../src/stream/reduce-stream.ts';
import { countUsage } from '../../src/usage/count-usage.ts';
import { tempDir } from './temp-dir.ts';

type Fields = Record<string, unknown>;
type Path = Array<string | number>;

/** The names a plain object answers from its prototype. */
export const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty'] as const;

/** The paths of every string value in a record. */
function stringPaths(value: unknown, path: Path = []): Path[] {
  if (typeof value === 'string') return [path];
  if (Array.isArray(value)) return value.flatMap((v, i) => stringPaths(v, [...path, i]));
  if (typeof value === 'object' && value !== null)
    return Object.entries(value).flatMap(([k, v]) => stringPaths(v, [...path, k]));
  return [];
}

/**
 * Sets the `n`-th string value of a record (modulo their count) to `value`, in place (the fuzz's `proto-value`
 * mutation).
 * @returns whether the record had a string value
 */
export function setNthString(record: Fields, n: number, value: string): boolean {
  const paths = stringPaths(record);
  if (paths.length === 0) return false;
  setAt(record, paths[n % paths.length] as Path, value);
  return true;
}

function setAt(record: Fields, path: Path, value: string): void {
  let node = record as Record<string | number, unknown>;
  for (const step of path.slice(0, -1)) node = node[step] as Record<string | number, unknown>;
  node[path.at(-1) as string | number] = value;
}

/** `Object.prototype`'s own properties and their values, to compare before and after. */
function prototypeState(): string {
  return Object.getOwnPropertyNames(Object.prototype)
    .map((name) => `${name}:${String(Object.getOwnPropertyDescriptor(Object.prototype, name)?.value ?? 'accessor')}`)
    .join('|');
}

/** Everything romp makes of the records, as JSON text. */
async function outputs(records: Fields[], file: string): Promise<string> {
  writeFileSync(file, records.map((r) => `${JSON.stringify(r)}\n`).join(''));
  const full = await parseSession([file]);
  const context = await parseSession([file], { view: 'context' });
  const usage = await countUsage([file]);
  let state: StreamState | undefined;
  for (const m of records) state = reduceStream(state, m, 0);
  const stream = state === undefined ? undefined : { session: streamSession(state), ignored: state.ignored };
  const all = { full, context, outline: formatOutline(full.session, timeFormat('UTC')), usage, stream };
  return JSON.stringify(all, (key, value: unknown) => {
    if (key === 'color') return undefined;
    if (key === 'id' && typeof value === 'string') return value.replace(/:[0-9a-f]{12}$/, ':hash');
    return value;
  });
}

/**
 * Checks the property for one case.
 * @param records a transcript's lines (stream fields are added: `session_id`, `parent_tool_use_id`)
 * @param pick which string field (modulo their count)
 * @param key the prototype name written there
 */
export async function checkPrototypeKey(records: Fields[], pick: number, key: string): Promise<void> {
  const messages = records.map((r) => ({
    ...r,
    session_id: r['sessionId'] ?? 'fixture-session',
    parent_tool_use_id: r['isSidechain'] === true ? 'toolu_side' : null,
  }));
  const paths = messages.flatMap((r, i) => stringPaths(r).map((p) => [i, p] as const));
  if (paths.length === 0) return;
  const [at, path] = paths[pick % paths.length] as readonly [number, Path];
  const variant = (value: string): Fields[] => {
    const copy = structuredClone(messages);
    setAt(copy[at] as Fields, path, value);
    return copy;
  };
  const file = join(tempDir('romp-proto-'), 'session.jsonl');
  const before = prototypeState();
  const hostile = await outputs(variant(key), file);
  const after = prototypeState();
  if (after !== before || ({} as Fields)['lowerBound'] !== undefined)
    throw new Error(`${key} at ${at}/${path.join('.')}: Object.prototype changed`);
  const word = 'Q'.repeat(key.length);
  const plain = (await outputs(variant(word), file)).replaceAll(word, key);
  if (hostile !== plain) {
    let i = 0;
    while (hostile[i] === plain[i]) i++;
    throw new Error(
      `${key} at line ${at} ${path.join('.')}: output differs from the plain word's at ${i}:\n  ${hostile.slice(i - 80, i + 80)}\n  ${plain.slice(i - 80, i + 80)}`,
    );
  }
}
