import { diagnostic, type Diagnostic, type OnDiagnostic } from '../diagnostics/diagnostic.ts';
import type { Atom } from '../model/types.ts';
import type { RawRecord } from '../read/parse-line.ts';
import { parseTimestamp } from '../read/parse-timestamp.ts';
import { versionBefore } from '../read/claude-version.ts';
import { keyed } from '../model/keyed.ts';
import { dayFormatter } from './day-formatter.ts';
import { PRICES, priceFor, pricer, type Price } from './prices.ts';
import { tokenCount } from './token-count.ts';
import { readUsageLines, type UsageReadOptions } from './read-usage-lines.ts';
import type { WorkerMessage } from './usage-worker.ts';
import { threadsForBytes } from './usage-threads.ts';

/** Token counts (tokens) and cost (USD). */
export interface Totals {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_creation_5m: number;
  cache_creation_1h: number;
  cache_read_input_tokens: number;
  cost_usd: number;
  /** API responses counted. */
  responses: number;
  /** Responses of a model with no price: in the token counts, not in `cost_usd`. */
  unpriced: number;
  /** Some responses hold no final `output_tokens` (Claude Code before 2.1.112, every line `stop_reason: null`). */
  lowerBound: boolean;
}

/** One API response, counted once. */
export interface Response {
  messageId: string;
  requestId: string | undefined;
  sessionId: string;
  model: string;
  /** The first line's time (epoch ms). */
  t: number;
  isSidechain: boolean;
  usage: Record<string, unknown>;
  lowerBound: boolean;
  file: string;
}

/** What `countUsage` gives. `bySession`, `byDay` and `byModel` have no prototype (`keyed`): any session id or model is
 * a key. */
export interface UsageReport {
  total: Totals;
  bySession: Record<string, Totals>;
  byDay: Record<string, Totals>;
  byModel: Record<string, Totals>;
  /** Models with no price: their tokens are counted, their cost is not (`cost_usd` excludes them). */
  unknownModels: string[];
  responses: Response[];
}

/** Options of `countUsage`. */
export interface UsageOptions {
  /** IANA zone for `byDay` (default: the machine's). */
  timeZone?: string;
  /** Prices to use (default `PRICES`), e.g. merged with a JSON file. */
  prices?: Readonly<Record<string, Price>>;
  /** Receives the diagnostics of the assistant lines read (`readUsageLines`), from every worker. */
  onDiagnostic?: OnDiagnostic;
  /** Called after each file, for progress. */
  onFile?: (path: string, done: number, total: number) => void;
  /** Threads reading files in parallel, this one among them, at most (default: 1, this thread alone). */
  workers?: number;
  /** Bytes to read per thread (`threadsForBytes`; `USAGE_BYTES_PER_THREAD`): fewer threads than `workers` for fewer
   * bytes (default 0: `workers` threads). */
  bytesPerWorker?: number;
  /** What is already known of a file (romp's index: `storedUsage`), else `undefined`: the file is read. */
  stored?: (path: string) => Promise<FileUsage | undefined>;
}

/** One file's responses before the cross-file merge (`collectFileResponses`), and the diagnostics its reader gave. */
export interface FileUsage {
  groups: Map<string, Response>;
  diagnostics: Diagnostic[];
}

/** Files looked up in `stored` at once (each lookup stamps its file). */
const LOOKUPS_AT_ONCE = 32;

const zero = (): Totals => ({
  input_tokens: 0,
  output_tokens: 0,
  cache_creation_input_tokens: 0,
  cache_creation_5m: 0,
  cache_creation_1h: 0,
  cache_read_input_tokens: 0,
  cost_usd: 0,
  responses: 0,
  unpriced: 0,
  lowerBound: false,
});
const num = (v: unknown): number => tokenCount(v) ?? 0;

/** The token fields of `usage` (and of its `cache_creation` breakdown) that are summed. */
const TOKEN_FIELDS = [
  'input_tokens',
  'output_tokens',
  'cache_creation_input_tokens',
  'cache_read_input_tokens',
] as const;
const CACHE_FIELDS = ['ephemeral_5m_input_tokens', 'ephemeral_1h_input_tokens'] as const;

/**
 * Counts the tokens and cost of every API response recorded in the files, each once
 * (known-failures.md §7, "Usage de-duplication"), dead branches and subagents included:
 * 1. one response = the lines sharing `message.id` + `requestId`, across all files (resume and fork
 *    copies count once);
 * 2. without `requestId`, `message.id` within one `sessionId` (gateways reuse one id for everything);
 * 3. a sidechain line repeating a main-chain response (`/btw` replays) counts once, as the main one;
 * 4. among a response's lines the largest token total wins (the final snapshot), timed by its earliest line;
 * 5. cache creation uses the nested 5 m / 1 h breakdown when present (the flat count can be 0);
 * 6. sidechain (subagent) usage is counted, never dropped; `<synthetic>` lines count zero;
 *    a token field that is not a count (`tokenCount`: negative, a string, `1e300`…) counts zero, with
 *    `BAD_USAGE`;
 * 7. responses of Claude Code before 2.1.112 whose lines all say `stop_reason: null` are lower bounds:
 *    their lines hold the `message_start` usage (≤2.1.20 on every line; the corpus's 2.1.29–2.1.42 files
 *    too; 2.1.63–2.1.96 when the last line was written before its final values). From 2.1.112 the writer
 *    holds lines back until the final values, and writes `null` only on an interrupted response, whose
 *    usage is final as written.
 * A file `options.stored` knows (romp's index, while the file has the stamp it was read from) is not
 * read: its groups and diagnostics are merged as a read would give them.
 * @param files transcript paths (a session's, or a whole projects folder's)
 * @param options zone, prices, diagnostics, progress
 * @returns totals, by session, day and model, the unknown models, and the responses counted
 */
export async function countUsage(files: string[], options: UsageOptions = {}): Promise<UsageReport> {
  const known = await storedFiles(files, options);
  const toRead = known.size === 0 ? files : files.filter((f) => !known.has(f));
  const workers = Math.min(options.workers ?? 1, toRead.length);
  const read = workers > 1 ? await inWorkers(toRead, workers, options) : await collectResponses(toRead, options);
  if (known.size === 0) return reportGroups(read, options);
  // a file's groups fold in as its worker's would: the same merge, whichever way they were had
  const groups = new Map<string, Response>();
  for (const usage of known.values()) for (const [key, response] of usage.groups) merge(groups, key, response);
  for (const [key, response] of read) merge(groups, key, response);
  return reportGroups(groups, options);
}

/** The files `options.stored` knows, in the files' order, their diagnostics passed on and each counted as done. */
async function storedFiles(files: string[], options: UsageOptions): Promise<Map<string, FileUsage>> {
  const known = new Map<string, FileUsage>();
  if (options.stored === undefined) return known;
  for (let i = 0; i < files.length; i += LOOKUPS_AT_ONCE) {
    const batch = files.slice(i, i + LOOKUPS_AT_ONCE);
    const found = await Promise.all(batch.map((f) => (options.stored as NonNullable<UsageOptions['stored']>)(f)));
    batch.forEach((file, j) => {
      const usage = found[j];
      if (usage !== undefined) known.set(file, usage);
    });
  }
  let done = 0;
  for (const [file, usage] of known) {
    for (const d of usage.diagnostics) options.onDiagnostic?.(d);
    options.onFile?.(file, ++done, files.length);
  }
  return known;
}

/**
 * `countUsage`'s report over responses already grouped (`collectResponses`, `collectFileResponses`: a
 * reader of appended bytes keeps its groups and folds each new range in): rule 3, then the sums, in a
 * fixed order.
 * @param groups responses by de-dup key
 * @param options zone and prices
 * @returns totals, by session, day and model, the unknown models, and the responses counted
 */
export function reportGroups(
  groups: Map<string, Response>,
  options: Pick<UsageOptions, 'timeZone' | 'prices'> = {},
): UsageReport {
  return report(countedResponses(groups), options);
}

/**
 * The responses counted among grouped lines (`collectResponses`, `takeResponse`): rule 3 (a sidechain
 * copy of a main-chain `message.id` left out), in a fixed order (time, then `message.id`, `requestId`,
 * session by code units), so sums (floating-point cost) do not depend on which worker read what first.
 * @param groups responses by de-dup key
 * @returns the responses `countUsage` counts, in its order
 */
export function countedResponses(groups: ReadonlyMap<string, Response>): Response[] {
  const mainIds = new Set<string>();
  for (const r of groups.values()) if (!r.isSidechain) mainIds.add(r.messageId);
  return [...groups.values()]
    .filter((r) => !(r.isSidechain && mainIds.has(r.messageId)))
    .sort(
      (a, b) =>
        (a.t || 0) - (b.t || 0) ||
        order(a.messageId, b.messageId) ||
        order(a.requestId ?? '', b.requestId ?? '') ||
        order(a.sessionId, b.sessionId),
    );
}

/** Strings by UTF-16 code units (`localeCompare`'s collation cost 90 ms over the bench's 18,800 responses). */
const order = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Reads files and groups their assistant lines into responses (rules 1, 2, 4, 6). Only what usage reads
 * of each assistant line is decoded, from its bytes (`readUsageLines`); other lines stay undecoded.
 * @param files transcript paths
 * @param options diagnostics and progress
 * @param next with threads sharing the files: the index of the next file to read, shared by them (`nextFile`);
 *   without it, this thread reads them all
 * @returns the responses by de-dup key
 */
export async function collectResponses(
  files: string[],
  options: Pick<UsageOptions, 'onDiagnostic' | 'onFile'> = {},
  next: Int32Array = new Int32Array(1),
): Promise<Map<string, Response>> {
  const groups = new Map<string, Response>();
  let done = 0;
  for (let i = nextFile(next); i < files.length; i = nextFile(next)) {
    const file = files[i] as string;
    await collectFileResponses(file, groups, options.onDiagnostic);
    options.onFile?.(file, ++done, files.length);
    // files are read synchronously: between two, let timers (a progress bar) and workers' messages run
    await new Promise((resolve) => setImmediate(resolve));
  }
  return groups;
}

/**
 * The index of the file a thread reads next, taken from a counter the threads share (`Atomics.add`): each
 * takes the next file as it is done with one, so that none is left idle while another still has files (a
 * worker starts 0.1-0.2 s after this thread; shares of equal bytes fixed beforehand left this one waiting).
 * @param next the shared counter (an `Int32Array` of one, on a `SharedArrayBuffer` between threads)
 * @returns the index taken (the files' count or more: none left)
 */
export function nextFile(next: Int32Array): number {
  return Atomics.add(next, 0, 1);
}

/**
 * Folds the responses of one file, or of a byte range of it (the bytes appended since a last read), into
 * `groups`, by the rules of `countUsage` (1, 2, 4, 6; rule 3 and the sums are `countUsage`'s, over all
 * groups).
 * @param file a transcript path
 * @param groups responses by de-dup key (`responseKey`), updated in place
 * @param onDiagnostic receives the diagnostics of the lines read
 * @param range the byte range (`start` at a line's start, `end` exclusive) and the number of its first line
 * @returns the number of the line after the last one read (`readUsageLines`); `undefined`: UTF-16 or unreadable
 */
export async function collectFileResponses(
  file: string,
  groups: Map<string, Response>,
  onDiagnostic: OnDiagnostic = () => {},
  range: Pick<UsageReadOptions, 'start' | 'end' | 'firstLine'> = {},
): Promise<number | undefined> {
  return readUsageLines(
    file,
    (record, line, byteOffset) => takeResponse(record, file, line, byteOffset, groups, onDiagnostic),
    onDiagnostic,
    range,
  );
}

/** Reads the files on `most` threads at most, this one among them: as many as their bytes call for
 * (`bytesPerWorker`). */
async function inWorkers(files: string[], most: number, options: UsageOptions): Promise<Map<string, Response>> {
  const sized = await sizes(files);
  const count = threadsForBytes(
    sized.reduce((sum, [, size]) => sum + size, 0),
    most,
    options.bytesPerWorker ?? 0,
  );
  if (count === 1) return collectResponses(files, options);
  const { Worker } = await import('node:worker_threads');
  const { existsSync } = await import('node:fs');
  // the worker's bundle with its code cache where built (the same file from dist/src/usage/ and dist/src/cli/)
  const bundled = new URL('../cli/usage-worker.cjs', import.meta.url);
  const script = existsSync(bundled) ? bundled : new URL('../usage/usage-worker.js', import.meta.url);
  const groups = new Map<string, Response>();
  let done = 0;
  const onFile = (file: string): void => options.onFile?.(file, ++done, files.length);
  const next = new Int32Array(new SharedArrayBuffer(4));
  const workers = Array.from(
    { length: count - 1 },
    () => new Worker(script, { workerData: { usageWorker: true, next } }),
  );
  const ended = workers.map(
    (worker) =>
      new Promise<void>((resolve, reject) => {
        worker.on('message', (message: WorkerMessage) => {
          for (const d of message.diagnostics) options.onDiagnostic?.(d);
          onFile(message.file);
          unpackResponses(message.packed, (key, response) => merge(groups, key, response));
        });
        worker.on('error', reject);
        worker.on('exit', () => resolve());
      }),
  );
  // the largest files first, taken one at a time by whichever thread is free: the last one taken is small
  const ordered = largestFirst(sized);
  for (const worker of workers) worker.postMessage({ files: ordered });
  // this thread reads too: one worker fewer to start (each costs a thread, its module loading, its JIT)
  await Promise.all([
    ...ended,
    collectResponses(
      ordered,
      { ...(options.onDiagnostic ? { onDiagnostic: options.onDiagnostic } : {}), onFile },
      next,
    ).then((mine) => {
      for (const [key, response] of mine) merge(groups, key, response);
    }),
  ]);
  return groups;
}

/**
 * A file's responses as a worker posts them (`packResponses`): one transferred buffer of their numbers and one
 * string of JSON for the rest, not an object each (the structured clone of 8,836 responses cost 95 ms).
 */
export interface PackedResponses {
  /** Per response: its time (`t`), then its flags (1: `isSidechain`, 2: `lowerBound`). */
  numbers: Float64Array;
  /** `[strings, rows]`: the sessions, models and files once each, then per response `messageId`, `requestId`
   * (`null`: none), the indexes of its session, model and file in `strings`, and its usage (`null`: in `odd`). */
  json: string;
  /** The usages JSON would not give back as they are (a `-0`, ±Infinity in them), by response index. */
  odd: Array<[number, Record<string, unknown>]>;
}

/**
 * Packs grouped responses for a worker's message (`unpackResponses` gives them back, equal).
 * @param groups responses by de-dup key
 * @returns the packed responses
 */
export function packResponses(groups: ReadonlyMap<string, Response>): PackedResponses {
  const numbers = new Float64Array(2 * groups.size);
  const strings: string[] = [];
  const index = new Map<string, number>();
  const at = (s: string): number => {
    let i = index.get(s);
    if (i === undefined) index.set(s, (i = strings.push(s) - 1));
    return i;
  };
  const rows: unknown[] = [];
  const odd: Array<[number, Record<string, unknown>]> = [];
  let n = 0;
  for (const r of groups.values()) {
    numbers[2 * n] = r.t;
    numbers[2 * n + 1] = (r.isSidechain ? 1 : 0) | (r.lowerBound ? 2 : 0);
    const plain = jsonSafe(r.usage);
    if (!plain) odd.push([n, r.usage]);
    rows.push(r.messageId, r.requestId ?? null, at(r.sessionId), at(r.model), at(r.file), plain ? r.usage : null);
    n++;
  }
  return { numbers, json: JSON.stringify([strings, rows]), odd };
}

/**
 * The responses of `packResponses`, each with its de-dup key, in the order they were packed.
 * @param packed what a worker posted
 * @param each receives each key and response
 */
export function unpackResponses(packed: PackedResponses, each: (key: string, response: Response) => void): void {
  const [strings, rows] = JSON.parse(packed.json) as [string[], unknown[]];
  const odd = new Map(packed.odd);
  for (let n = 0, k = 0; k < rows.length; n++, k += 6) {
    const messageId = rows[k] as string;
    const requestId = (rows[k + 1] as string | null) ?? undefined;
    const sessionId = strings[rows[k + 2] as number] as string;
    const flags = packed.numbers[2 * n + 1] as number;
    each(responseKey(messageId, requestId, sessionId), {
      messageId,
      requestId,
      sessionId,
      model: strings[rows[k + 3] as number] as string,
      t: packed.numbers[2 * n] as number,
      isSidechain: (flags & 1) !== 0,
      usage: (rows[k + 5] as Record<string, unknown> | null) ?? (odd.get(n) as Record<string, unknown>),
      lowerBound: (flags & 2) !== 0,
      file: strings[rows[k + 4] as number] as string,
    });
  }
}

/** Whether JSON gives a value back as it is: no `-0`, ±Infinity or NaN in it (JSON.parse gives no other kind). */
function jsonSafe(value: unknown): boolean {
  if (typeof value === 'number') return Number.isFinite(value) && (value !== 0 || 1 / value > 0);
  if (typeof value !== 'object' || value === null) return true;
  for (const v of Array.isArray(value) ? value : Object.values(value)) if (!jsonSafe(v)) return false;
  return true;
}

async function sizes(files: string[]): Promise<Array<[string, number]>> {
  const { stat } = await import('node:fs/promises');
  return Promise.all(
    files.map(async (f): Promise<[string, number]> => [f, (await stat(f).catch(() => undefined))?.size ?? 0]),
  );
}

/** The files, the largest first (a stable sort: files of one size keep their order). */
function largestFirst(files: Array<[string, number]>): string[] {
  return [...files].sort((a, b) => b[1] - a[1]).map(([file]) => file);
}

/** Folds one line (or a worker's response) into its group: the largest snapshot, the earliest time, main chain wins. */
function merge(groups: Map<string, Response>, key: string, line: Response): void {
  const kept = groups.get(key);
  if (kept === undefined)
    groups.set(key, line); // a fresh object, owned from here on
  else fold(kept, line.usage, line.lowerBound, line.isSidechain, line.t, line.sessionId, line.file);
}

/** `merge`'s step for a response already grouped, given the parts of its next line (no object of its own). */
function fold(
  kept: Response,
  usage: Record<string, unknown>,
  lowerBound: boolean,
  isSidechain: boolean,
  t: number,
  sessionId: string,
  file: string,
): void {
  if (tokens(usage) > tokens(kept.usage)) kept.usage = usage;
  kept.lowerBound &&= lowerBound;
  if (!isSidechain) kept.isSidechain = false;
  // the copy written first names the session (and the file): a fork's copy never takes the original's place,
  // whichever order the files (or the workers) came in
  if (Number.isNaN(kept.t) || t < kept.t || (t === kept.t && sessionId < kept.sessionId)) {
    kept.t = t;
    kept.sessionId = sessionId;
    kept.file = file;
  }
}

/**
 * Folds one decoded record into response groups (rules 1, 2, 4, 6; `BAD_USAGE`): `collectResponses`'
 * step, for a reader that decodes the lines itself (`romp index` counts from the parse's own records).
 * Records other than `assistant` lines with a `message.id` and `usage` are ignored.
 * @param record a decoded line
 * @param file its file
 * @param line its 1-based line
 * @param byteOffset its byte offset in the file
 * @param groups responses by de-dup key, updated
 * @param onDiagnostic receives `BAD_USAGE`
 */
export function takeResponse(
  record: RawRecord,
  file: string,
  line: number,
  byteOffset: number,
  groups: Map<string, Response>,
  onDiagnostic: OnDiagnostic,
): void {
  if (record['type'] !== 'assistant') return;
  const message = record['message'] as Record<string, unknown> | undefined;
  const usage = message?.['usage'];
  const id = message?.['id'];
  if (typeof usage !== 'object' || usage === null || typeof id !== 'string') return;
  const model = typeof message?.['model'] === 'string' ? (message['model'] as string) : 'unknown';
  if (model === '<synthetic>') return;
  const requestId = typeof record['requestId'] === 'string' ? record['requestId'] : undefined;
  const sessionId = typeof record['sessionId'] === 'string' ? record['sessionId'] : '';
  const counts = usage as Record<string, unknown>;
  checkUsage(counts, { file, line, byteOffset, uuid: record['uuid'] }, onDiagnostic);
  const t = parseTimestamp(record['timestamp']);
  const isSidechain = record['isSidechain'] === true;
  // before 2.1.112 a line with stop_reason null holds start-of-message usage
  const stopReason = message?.['stop_reason'];
  const lowerBound = (stopReason === null || stopReason === undefined) && beforeFinalUsage(record['version']);
  const key = responseKey(id, requestId, sessionId);
  const kept = groups.get(key);
  // a response's next line folds in: no object of its own
  if (kept !== undefined) fold(kept, counts, lowerBound, isSidechain, t, sessionId, file);
  else groups.set(key, { messageId: id, requestId, sessionId, model, t, isSidechain, usage: counts, lowerBound, file });
}

/** Whether a line's Claude Code version comes before 2.1.112 (rule 7), kept per version string: a folder holds few. */
function beforeFinalUsage(version: unknown): boolean {
  if (typeof version !== 'string') return versionBefore(version, 2, 1, 112);
  let before = BEFORE_2_1_112.get(version);
  if (before === undefined) {
    if (BEFORE_2_1_112.size >= 1000) BEFORE_2_1_112.clear(); // a hostile file's many versions stay bounded
    BEFORE_2_1_112.set(version, (before = versionBefore(version, 2, 1, 112)));
  }
  return before;
}
const BEFORE_2_1_112 = new Map<string, boolean>();

/** Where a line is, for its `BAD_USAGE` (`uuid`: the line's, when a string). */
interface LinePlace {
  file: string;
  line: number;
  byteOffset: number;
  uuid: unknown;
}

/** `BAD_USAGE` for each token field that is there (not null) and not a count. */
function checkUsage(usage: Record<string, unknown>, place: LinePlace, onDiagnostic: OnDiagnostic): void {
  const nested = usage['cache_creation'];
  for (const f of TOKEN_FIELDS) badUsage('', f, usage[f], place, onDiagnostic);
  if (typeof nested === 'object' && nested !== null)
    for (const f of CACHE_FIELDS)
      badUsage('cache_creation.', f, (nested as Record<string, unknown>)[f], place, onDiagnostic);
}

function badUsage(prefix: string, name: string, value: unknown, place: LinePlace, onDiagnostic: OnDiagnostic): void {
  if (value === undefined || value === null || tokenCount(value) !== undefined) return;
  const { uuid, ...at } = place;
  onDiagnostic(
    diagnostic(
      'BAD_USAGE',
      `usage.${prefix}${name} is ${JSON.stringify(value) ?? String(value)}, not a token count: counted as 0`,
      typeof uuid === 'string' ? { ...at, uuid } : at,
    ),
  );
}

function tokens(u: Record<string, unknown>): number {
  return (
    num(u['input_tokens']) +
    num(u['output_tokens']) +
    num(u['cache_creation_input_tokens']) +
    num(u['cache_read_input_tokens'])
  );
}

function report(responses: Response[], options: Pick<UsageOptions, 'timeZone' | 'prices'>): UsageReport {
  const dayOf = dayFormatter(options.timeZone);
  const total = zero();
  const bySession = keyed<Totals>();
  const byDay = keyed<Totals>();
  const byModel = keyed<Totals>();
  const unknown = new Set<string>();
  const priceOf = pricer(options.prices);
  for (const r of responses) {
    const price = priceOf(r.model);
    if (price === undefined) unknown.add(r.model);
    const dayKey = Number.isNaN(r.t) ? 'unknown' : dayOf(r.t);
    // one response's numbers, read once, summed into its four rows
    const row = responseRow(r, price);
    addRow(total, row);
    addRow((bySession[r.sessionId] ??= zero()), row);
    addRow((byDay[dayKey] ??= zero()), row);
    addRow((byModel[r.model] ??= zero()), row);
  }
  return { total, bySession, byDay, byModel, unknownModels: [...unknown].sort(), responses };
}

/** What one response adds to a totals row: its tokens (cache writes from the nested 5 m / 1 h breakdown when it
 * has one) and, with a price, its cost (USD; `undefined`: unpriced). */
interface ResponseRow {
  input: number;
  output: number;
  creation: number;
  fiveMinute: number;
  oneHour: number;
  read: number;
  cost: number | undefined;
  lowerBound: boolean;
}

function responseRow(r: Response, price: Price | undefined): ResponseRow {
  const u = r.usage;
  const nested = u['cache_creation'] as Record<string, unknown> | null | undefined;
  const m5 = num(nested?.['ephemeral_5m_input_tokens']);
  const h1 = num(nested?.['ephemeral_1h_input_tokens']);
  const flat = num(u['cache_creation_input_tokens']);
  const input = num(u['input_tokens']);
  const output = num(u['output_tokens']);
  const read = num(u['cache_read_input_tokens']);
  const fiveMinute = m5 + h1 > 0 ? m5 : flat; // without the breakdown, writes are 5-minute writes
  const oneHour = m5 + h1 > 0 ? h1 : 0;
  return {
    input,
    output,
    creation: m5 + h1 > 0 ? m5 + h1 : flat,
    fiveMinute,
    oneHour,
    read,
    cost:
      price === undefined
        ? undefined
        : (input * price.input +
            output * price.output +
            fiveMinute * price.cache_write_5m +
            oneHour * price.cache_write_1h +
            read * price.cache_read) /
          1e6,
    lowerBound: r.lowerBound,
  };
}

function addRow(t: Totals, row: ResponseRow): void {
  t.input_tokens += row.input;
  t.output_tokens += row.output;
  t.cache_creation_input_tokens += row.creation;
  t.cache_creation_5m += row.fiveMinute;
  t.cache_creation_1h += row.oneHour;
  t.cache_read_input_tokens += row.read;
  t.responses++;
  t.lowerBound ||= row.lowerBound;
  if (row.cost === undefined) t.unpriced++;
  else t.cost_usd += row.cost;
}

function add(t: Totals, r: Response, price: Price | undefined): void {
  addRow(t, responseRow(r, price));
}

/**
 * Rules 1 and 2: a response is its `message.id` with its `requestId`, else its `message.id` within its
 * session (the parts joined by a NUL).
 * @param id `message.id`
 * @param requestId the line's `requestId`, where written
 * @param sessionId the line's session
 * @returns the de-dup key
 */
export function responseKey(id: string, requestId: string | undefined, sessionId: string): string {
  // the lines of one response come one after another, their strings the same (`usageRecord` keeps them)
  if (id !== lastKey.id || requestId !== lastKey.requestId || sessionId !== lastKey.sessionId)
    lastKey = {
      id,
      requestId,
      sessionId,
      key: requestId !== undefined ? `${id}\u0000${requestId}` : `${sessionId}\u0000${id}`,
    };
  return lastKey.key;
}
let lastKey: { id: string; requestId: string | undefined; sessionId: string; key: string } = {
  id: '',
  requestId: '',
  sessionId: '',
  key: '\u0000',
};

/**
 * The API responses among atoms (a turn's, a session's), each once, by the rules of `countUsage`: one
 * response per `message.id` with `request_id` (without one, `message.id` within the atom's session),
 * its largest snapshot, timed by its earliest line; `<synthetic>` lines are left out. Atoms carry no
 * Claude Code version, so a response is a lower bound when none of its lines has a `stop_reason`
 * (rule 7 without its version test). `file` is the fsid of the line kept.
 * @param atoms assistant atoms among others (the others are skipped)
 * @returns the responses, in the order their first line came
 */
export function atomResponses(atoms: readonly Atom[]): Response[] {
  const groups = new Map<string, Response>();
  for (const atom of atoms) {
    const message = atom.message;
    const id = message?.id;
    const model = message?.model ?? 'unknown';
    if (
      atom.type !== 'assistant' ||
      typeof id !== 'string' ||
      typeof message?.usage !== 'object' ||
      message.usage === null ||
      model === '<synthetic>'
    )
      continue;
    merge(groups, responseKey(id, atom.request_id, atom.session_id), {
      messageId: id,
      requestId: atom.request_id,
      sessionId: atom.session_id,
      model,
      t: atom.t,
      isSidechain: false,
      usage: message.usage as unknown as Record<string, unknown>,
      lowerBound: message.stop_reason === null || message.stop_reason === undefined,
      file: atom.fsid ?? '',
    });
  }
  return [...groups.values()];
}

/**
 * The tokens and cost of atoms (a turn's): the sum of their `atomResponses`.
 * @param atoms assistant atoms among others (the others are skipped)
 * @param prices prices to use (default `PRICES`)
 * @returns the totals (tokens; `cost_usd` in USD)
 */
export function countAtomUsage(atoms: readonly Atom[], prices: Readonly<Record<string, Price>> = PRICES): Totals {
  const total = zero();
  for (const r of atomResponses(atoms)) add(total, r, priceFor(r.model, prices));
  return total;
}

/**
 * The pieces `countUsage` sums with, for reports that group the same responses another way
 * (`groupUsage`): `emptyTotals()` is a zero row; `addResponse(totals, response, price)` adds one
 * response's tokens (nested 5 m / 1 h cache writes first) and, with a price, its cost in USD.
 */
export { zero as emptyTotals, add as addResponse, merge as mergeResponse };
