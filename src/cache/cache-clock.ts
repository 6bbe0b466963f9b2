import type { Atom, Session } from '../model/types.ts';
import { isKnownTime } from '../model/time.ts';
import { PRICES, priceFor, type Price } from '../usage/prices.ts';
import { tokenCount } from '../usage/token-count.ts';
import { TTL_1H, TTL_5M } from './explain-cache-writes.ts';

/** How long the prompt cache of a session still holds, and what resuming after that re-writes. */
export interface CacheClock {
  /** The last API response's time (epoch ms), from which the TTL runs. */
  last_response: number;
  /** `5m` or `1h`: the tier the session writes (1 h once any of its responses wrote 1-hour tokens). */
  ttl: '5m' | '1h';
  /** When the cache expires (epoch ms). */
  expires_at: number;
  /** Seconds left (0 once expired). */
  seconds_left: number;
  model: string;
  /** The prompt the next request sends again: the last response's input, cache read and write, and its output (tokens).
   * */
  rewrite_tokens: number;
  /** What writing them costs once expired (USD, at the tier's write rate); `null` for a model without a price. */
  rewrite_usd: number | null;
  /** What that costs beyond reading them from a warm cache (USD). */
  extra_usd: number | null;
}

/** The clock's times (epoch ms), which the CLI's `--json` prints as ISO strings (`isoTime`). */
export const CACHE_CLOCK_TIMES = ['last_response', 'expires_at'] as const;

/**
 * The cache clock of an open session (`romp watch`, `romp cache --statusline`): from the main chain's
 * last API response with usage (not `<synthetic>`), the TTL left and the tokens a request after expiry
 * writes again. Pure.
 * @param session the session
 * @param now the current time (epoch ms)
 * @param prices the price table (default `PRICES`)
 * @returns the clock, or `undefined` without a timed response
 */
export function cacheClock(
  session: Session,
  now: number,
  prices: Readonly<Record<string, Price>> = PRICES,
): CacheClock | undefined {
  let last: Atom | undefined;
  let hour = false;
  for (const turn of session.turns) {
    for (const atom of turn.atoms) {
      const usage = atom.message?.usage as Record<string, unknown> | undefined;
      if (
        atom.type !== 'assistant' ||
        usage === undefined ||
        atom.message?.model === '<synthetic>' ||
        !isKnownTime(atom.t)
      )
        continue;
      last = atom;
      hour ||=
        (tokenCount((usage['cache_creation'] as Record<string, unknown> | undefined)?.['ephemeral_1h_input_tokens']) ??
          0) > 0;
    }
  }
  if (last === undefined) return undefined;
  const u = last.message?.usage as unknown as Record<string, unknown>;
  const n = (k: string): number => tokenCount(u[k]) ?? 0;
  const rewrite =
    n('input_tokens') + n('cache_read_input_tokens') + n('cache_creation_input_tokens') + n('output_tokens');
  const model = last.message?.model ?? 'unknown';
  const price = priceFor(model, prices);
  const write = price === undefined ? undefined : hour ? price.cache_write_1h : price.cache_write_5m;
  const expires = last.t + (hour ? TTL_1H : TTL_5M);
  return {
    last_response: last.t,
    ttl: hour ? '1h' : '5m',
    expires_at: expires,
    seconds_left: Math.max(0, Math.round((expires - now) / 1000)),
    model,
    rewrite_tokens: rewrite,
    rewrite_usd: write === undefined ? null : (rewrite * write) / 1e6,
    extra_usd: write === undefined || price === undefined ? null : (rewrite * (write - price.cache_read)) / 1e6,
  };
}

/**
 * The clock in one line: `cache: 4 min 10 s left (5m TTL); after that a request re-writes 120,000 tokens ($0.45)`.
 * @param clock the clock
 * @returns the line, without a newline
 */
export function formatCacheClock(clock: CacheClock): string {
  const left =
    clock.seconds_left === 0
      ? 'expired'
      : `${Math.floor(clock.seconds_left / 60)} min ${clock.seconds_left % 60} s left`;
  const usd = clock.rewrite_usd === null ? 'no price' : `$${clock.rewrite_usd.toFixed(2)}`;
  return `cache: ${left} (${clock.ttl} TTL); ${clock.seconds_left === 0 ? 'the next request' : 'after that a request'} re-writes ${clock.rewrite_tokens.toLocaleString('en-US')} tokens (${usd})`;
}
