import { keyed } from '../model/keyed.ts';
import { addResponse, emptyTotals, type Response } from '../usage/count-usage.ts';
import { dayFormatter } from '../usage/day-formatter.ts';
import { PRICES, priceFor, type Price } from '../usage/prices.ts';
import { tokenCount } from '../usage/token-count.ts';

/**
 * Why a response wrote to the prompt cache (docs/cache.md):
 * - `cold_start`: the first response of its chain (a session's main chain, or a subagent's);
 * - `expiry_human` / `expiry_work`: the time since the chain's previous response exceeded the cache's
 *   TTL (1 h while the chain's last write was of 1-hour tokens only, else 5 min), most of it spent
 *   waiting for a prompt (human) or in tool calls and subagents (work);
 * - `model_switch`: another model than the previous response's (each model has a cache of its own);
 * - `compaction`: a `compact_boundary` lies between it and the previous response on its chain (walking
 *   `parentUuid` up; on a stream, which has no links, between the two in file order);
 * - `rewind`: it hangs on another response than the chain's previous one (the active path switched);
 * - `prompt_change`: none of the above, and a stream's `system/init` changed the model or tool list since
 *   the previous response, or it read from the cache less than half of the previous response's prompt
 *   (the system prompt or the tool list changed);
 * - `growth`: the normal write of the turns appended at the end.
 */
export type CacheCause =
  'cold_start' | 'expiry_human' | 'expiry_work' | 'model_switch' | 'compaction' | 'rewind' | 'prompt_change' | 'growth';

/** A transcript line as the cache forensics need it (`readCacheLines`). */
export interface CacheLine {
  file: string;
  line: number;
  uuid: string | undefined;
  parentUuid: string | undefined;
  type: string;
  /** epoch ms, NaN when unknown */
  t: number;
  /** The chain it belongs to: `main`, or the subagent's `agentId` (`sidechain` without one). */
  chain: string;
  /** `message.id` of an assistant line. */
  messageId: string | undefined;
  /** A prompt someone typed or sent (a user line that is not only tool results, not meta, not a compact summary). */
  prompt: boolean;
  compactBoundary: boolean;
  /** On a stream's `system/init`: its model and tool list (a signature); else `undefined`. */
  init: string | undefined;
  cwd: string | undefined;
}

/** Counts, tokens and dollars of one cause, or of a group. */
export interface CauseTotals {
  responses: number;
  /** Cache-write tokens (5 m and 1 h). */
  tokens: number;
  /** What those writes cost at the model's write rates (USD). */
  cost_usd: number;
  /** What they cost beyond a warm cache: the prefix written again, priced at the write rate less the read rate (USD).
   * */
  extra_cost_usd: number;
}

/** A group's totals with its causes. */
export interface CacheGroup extends CauseTotals {
  causes: Record<string, CauseTotals>;
}

/** One explained write. */
export interface CacheWrite {
  messageId: string;
  sessionId: string;
  model: string;
  cause: CacheCause;
  tokens: number;
  cost_usd: number;
  extra_cost_usd: number;
  /** Since the chain's previous response (ms), and its human / work parts; `null` without one. */
  gap_ms: number | null;
  human_ms: number | null;
  work_ms: number | null;
  file: string;
  line: number;
  t: number;
}

/** What `romp cache --json` prints (`writes` aside). */
export interface CacheReport {
  total: { tokens: number; cost_usd: number };
  causes: Record<string, CauseTotals>;
  /** By `sessionId`, each with its project (the `cwd` of its lines). */
  bySession: Record<string, CacheGroup & { project: string }>;
  byDay: Record<string, CacheGroup>;
}

/** Options of `explainCacheWrites`. */
export interface CacheOptions {
  /** Price table (default `PRICES`). */
  prices?: Readonly<Record<string, Price>>;
  /** IANA zone for `byDay` (default the machine's). */
  timeZone?: string;
  /** Spans a session sat idle (romp's state logs, epoch ms), by the transcript file they belong to: human time on its
   * main chain. */
  idle?: ReadonlyArray<{ file: string; t: number; end: number }>;
}

/** The TTLs of Anthropic's prompt cache (ms): the default 5 minutes, and the 1-hour option. */
export const TTL_5M: number = 5 * 60_000;
export const TTL_1H: number = 60 * 60_000;

const zero = (): CauseTotals => ({ responses: 0, tokens: 0, cost_usd: 0, extra_cost_usd: 0 });
const num = (v: unknown): number => tokenCount(v) ?? 0;

/**
 * Explains every cache write of the responses `countUsage` counted (each once), by the causes of
 * `CacheCause`, first rule that applies in that order. Pure. A response's chain is its file's and its
 * `chain`; the previous response is the one before it in time on that chain. Tokens are the response's
 * cache-write tokens as `countUsage` sums them (nested 5 m / 1 h breakdown, else the flat field), so
 * the causes add up to `romp usage`'s cache-write tokens. Cost: 5 m writes at `cache_write_5m`, 1 h at
 * `cache_write_1h`; extra cost (misses other than cold start, compaction and growth): the tokens the
 * previous prompt held (input + cache read + cache write of the response it follows) that were not read
 * back, at most the write, at the response's mean write rate less `cache_read`. A model without a price
 * costs 0 (its tokens count).
 * @param responses `countUsage(...).responses`
 * @param lines every line of the same files (`readCacheLines`)
 * @param options prices, zone for `byDay`, idle spans from romp's state logs
 * @returns the report and each write explained, in time order
 */
export function explainCacheWrites(
  responses: readonly Response[],
  lines: readonly CacheLine[],
  options: CacheOptions = {},
): { report: CacheReport; writes: CacheWrite[] } {
  const prices = options.prices ?? PRICES;
  const dayOf = dayFormatter(options.timeZone);
  const byFile = new Map<string, FileLines>();
  for (const l of lines) {
    let f = byFile.get(l.file);
    if (f === undefined)
      byFile.set(
        l.file,
        (f = { byUuid: new Map(), firstOf: new Map(), ordered: [], boundaries: [], inits: [], idle: [] }),
      );
    f.ordered.push(l);
    if (l.compactBoundary) f.boundaries.push(l.line);
    if (l.init !== undefined && l.init !== f.inits.at(-1)?.signature) f.inits.push({ line: l.line, signature: l.init });
    if (l.uuid !== undefined && !f.byUuid.has(l.uuid)) f.byUuid.set(l.uuid, l);
    if (l.messageId !== undefined && !f.firstOf.has(l.messageId)) f.firstOf.set(l.messageId, l);
  }
  for (const span of options.idle ?? []) byFile.get(span.file)?.idle.push(span);
  const chains = new Map<string, Placed[]>();
  const roots = new Map<CacheLine, CacheLine>();
  for (const r of responses) {
    const file = byFile.get(r.file);
    const first = file?.firstOf.get(r.messageId);
    // sidechains written inline without an agentId (1.0.x): one chain per root
    const chain =
      first === undefined
        ? 'main'
        : first.chain === 'sidechain' && file !== undefined
          ? `sidechain ${rootOf(first, file, roots).line}`
          : first.chain;
    const key = `${r.file}\u0000${chain}`;
    let list = chains.get(key);
    if (list === undefined) chains.set(key, (list = []));
    list.push({ r, first, ...sizes(r) });
  }
  const writes: CacheWrite[] = [];
  for (const list of chains.values()) {
    // streams carry no times: file order then
    list.sort((a, b) => (a.r.t || 0) - (b.r.t || 0) || (a.first?.line ?? 0) - (b.first?.line ?? 0));
    // the TTL the chain's cache holds: 1 h while its last write was 1-hour tokens only, else 5 min
    let ttl = TTL_5M;
    list.forEach((p, i) => {
      if (p.write > 0) {
        const ttlNow = p.write1h > 0 && p.write5m === 0 ? TTL_1H : TTL_5M;
        writes.push(
          explain(
            p,
            i === 0 ? undefined : (list[i - 1] as Placed),
            ttl,
            list,
            byFile.get(p.r.file),
            priceFor(p.r.model, prices),
          ),
        );
        ttl = ttlNow;
      }
    });
  }
  writes.sort((a, b) => (a.t || 0) - (b.t || 0) || a.messageId.localeCompare(b.messageId));
  const project = new Map<string, string>();
  for (const l of lines) if (l.cwd !== undefined && !project.has(l.file)) project.set(l.file, l.cwd);
  const report: CacheReport = {
    total: { tokens: 0, cost_usd: 0 },
    causes: keyed(),
    bySession: keyed(),
    byDay: keyed(),
  };
  for (const w of writes) {
    report.total.tokens += w.tokens;
    report.total.cost_usd += w.cost_usd;
    add((report.causes[w.cause] ??= zero()), w);
    const s = (report.bySession[w.sessionId] ??= { ...zero(), causes: keyed(), project: project.get(w.file) ?? '' });
    const d = (report.byDay[Number.isNaN(w.t) ? 'unknown' : dayOf(w.t)] ??= { ...zero(), causes: keyed() });
    for (const g of [s, d]) {
      add(g, w);
      add((g.causes[w.cause] ??= zero()), w);
    }
  }
  return { report, writes };
}

/** The first line of a sidechain: its root by `parentUuid` within the file (memoized, each line once). */
function rootOf(line: CacheLine, file: FileLines, roots: Map<CacheLine, CacheLine>): CacheLine {
  const walked = new Set<CacheLine>();
  let cur = line;
  for (;;) {
    const known = roots.get(cur);
    if (known !== undefined) {
      cur = known;
      break;
    }
    walked.add(cur);
    const parent = cur.parentUuid === undefined ? undefined : file.byUuid.get(cur.parentUuid);
    if (parent === undefined || parent.chain !== line.chain || walked.has(parent)) break;
    cur = parent;
  }
  for (const w of walked) roots.set(w, cur);
  return cur;
}

interface FileLines {
  byUuid: Map<string, CacheLine>;
  firstOf: Map<string, CacheLine>;
  ordered: CacheLine[];
  /** Lines of its `compact_boundary` rows, in order. */
  boundaries: number[];
  /** Where a stream's `system/init` changed the model or tool list (the first init included), in order. */
  inits: Array<{ line: number; signature: string }>;
  /** Idle spans of the file's session (main chain). */
  idle: Array<{ t: number; end: number }>;
}

interface Placed {
  r: Response;
  first: CacheLine | undefined;
  write: number;
  write5m: number;
  write1h: number;
  /** input + cache read + cache write (tokens) */
  prompt: number;
  read: number;
}

function sizes(r: Response): Pick<Placed, 'write' | 'write5m' | 'write1h' | 'prompt' | 'read'> {
  const t = emptyTotals();
  addResponse(t, r, undefined);
  const read = num(r.usage['cache_read_input_tokens']);
  return {
    write: t.cache_creation_input_tokens,
    write5m: t.cache_creation_5m,
    write1h: t.cache_creation_1h,
    prompt: num(r.usage['input_tokens']) + read + t.cache_creation_input_tokens,
    read,
  };
}

function add(into: CauseTotals, w: CacheWrite): void {
  into.responses++;
  into.tokens += w.tokens;
  into.cost_usd += w.cost_usd;
  into.extra_cost_usd += w.extra_cost_usd;
}

function explain(
  p: Placed,
  previous: Placed | undefined,
  ttl: number,
  chain: readonly Placed[],
  file: FileLines | undefined,
  price: Price | undefined,
): CacheWrite {
  const cost = price === undefined ? 0 : (p.write5m * price.cache_write_5m + p.write1h * price.cache_write_1h) / 1e6;
  const rate = p.write === 0 ? 0 : cost / p.write;
  const extraFor = (before: Placed): number =>
    price === undefined
      ? 0
      : Math.min(p.write, Math.max(0, before.prompt - p.read)) * Math.max(0, rate - price.cache_read / 1e6);
  const base = {
    messageId: p.r.messageId,
    sessionId: p.r.sessionId,
    model: p.r.model,
    tokens: p.write,
    cost_usd: cost,
    file: p.r.file,
    line: p.first?.line ?? 0,
    t: p.r.t,
  };
  if (previous === undefined)
    return { ...base, cause: 'cold_start', extra_cost_usd: 0, gap_ms: null, human_ms: null, work_ms: null };
  const gap = p.r.t - previous.r.t;
  const human = humanTime(previous.r.t, p.r.t, p.first?.chain, file);
  const timing = {
    gap_ms: Number.isNaN(gap) ? null : gap,
    human_ms: Number.isNaN(gap) ? null : human,
    work_ms: Number.isNaN(gap) ? null : gap - human,
  };
  if (gap > ttl)
    return {
      ...base,
      ...timing,
      cause: human * 2 >= gap ? 'expiry_human' : 'expiry_work',
      extra_cost_usd: extraFor(previous),
    };
  if (p.r.model !== previous.r.model)
    return { ...base, ...timing, cause: 'model_switch', extra_cost_usd: extraFor(previous) };
  const between = (lines: readonly number[]): boolean =>
    lines.some((l) => l > (previous.first?.line ?? Infinity) && l < (p.first?.line ?? -Infinity));
  const hung = ancestor(p, file);
  if (hung === 'compaction' || (hung === undefined && file !== undefined && between(file.boundaries)))
    return { ...base, ...timing, cause: 'compaction', extra_cost_usd: 0 };
  if (hung !== undefined && hung !== previous.r.messageId) {
    const on = chain.find((c) => c.r.messageId === hung);
    return { ...base, ...timing, cause: 'rewind', extra_cost_usd: on === undefined ? 0 : extraFor(on) };
  }
  // a stream's system/init with another model or tool list than the one before (the first one excepted)
  const changed = file !== undefined && between(file.inits.slice(1).map((i) => i.line));
  if (changed || p.read * 2 < previous.prompt)
    return { ...base, ...timing, cause: 'prompt_change', extra_cost_usd: extraFor(previous) };
  return { ...base, ...timing, cause: 'growth', extra_cost_usd: 0 };
}

/**
 * The response (`message.id`) the response's first line hangs on, walking `parentUuid` up its file;
 * `compaction` when a `compact_boundary` comes first; `undefined` when the walk ends (a root, a parent
 * not in the file). At most one step per line of the file.
 */
function ancestor(p: Placed, file: FileLines | undefined): string | undefined {
  if (file === undefined || p.first === undefined) return undefined;
  const seen = new Set<CacheLine>();
  for (
    let cur = p.first.parentUuid === undefined ? undefined : file.byUuid.get(p.first.parentUuid);
    cur !== undefined && !seen.has(cur);
    cur = cur.parentUuid === undefined ? undefined : file.byUuid.get(cur.parentUuid)
  ) {
    seen.add(cur);
    if (cur.compactBoundary) return 'compaction';
    if (cur.messageId !== undefined && cur.messageId !== p.r.messageId) return cur.messageId;
  }
  return undefined;
}

/**
 * The human part of the time between two responses of a chain (ms): for each prompt line in between,
 * the time since the line before it on the chain (the wait for the prompt); on the main chain, at least
 * the part of the gap its session sat idle (romp's state log). The rest is work (tool calls,
 * subagents, the model writing).
 */
function humanTime(from: number, to: number, chain: string | undefined, file: FileLines | undefined): number {
  if (file === undefined || Number.isNaN(from) || Number.isNaN(to)) return 0;
  let human = 0;
  let before = from;
  for (const l of file.ordered) {
    if (l.chain !== chain || Number.isNaN(l.t) || l.t <= from || l.t > to) continue;
    if (l.prompt) human += Math.max(0, l.t - before);
    before = Math.max(before, l.t);
  }
  let idle = 0;
  if (chain === 'main')
    for (const span of file.idle) idle += Math.max(0, Math.min(span.end, to) - Math.max(span.t, from));
  return Math.min(Math.max(human, idle), to - from);
}
