/**
 * Model prices in USD per million tokens, as Anthropic's pricing pages give them (platform.claude.com
 * "Pricing" and the model overview pages, checked 2026-11-30): input, output, cache writes (5-minute and
 * 1-hour TTL) and cache reads. Where a page gives only input and output, the standard multipliers apply
 * (cache write 1.25× / 2× input, cache read 0.1× input); Fable 5.1, Mythos 5.1 and Opus 5.5 read the
 * cache for less. Claude Haiku 5.5 has no entry: its price depends on each request's prompt length
 * (two bands), which a per-response table cannot express, so its responses are reported as unpriced.
 * Override or extend with a JSON file of the same shape (`romp usage --prices FILE`).
 */
export interface Price {
  input: number;
  output: number;
  cache_write_5m: number;
  cache_write_1h: number;
  cache_read: number;
}

const standard = (input: number, output: number): Price => ({
  input,
  output,
  cache_write_5m: input * 1.25,
  cache_write_1h: input * 2,
  cache_read: input * 0.1,
});

/** Prices by model id (date suffixes are stripped before the look-up). */
export const PRICES: Readonly<Record<string, Price>> = {
  'claude-opus-4': standard(15, 75),
  'claude-opus-4-1': standard(15, 75),
  'claude-opus-4-5': standard(5, 25),
  'claude-opus-4-6': standard(5, 25),
  'claude-opus-4-7': standard(5, 25),
  'claude-opus-4-8': standard(5, 25),
  'claude-opus-5': standard(5, 25),
  'claude-opus-5-5': { input: 4, output: 20, cache_write_5m: 5, cache_write_1h: 8, cache_read: 0.2 },
  'claude-sonnet-4': standard(3, 15),
  'claude-sonnet-4-5': standard(3, 15),
  'claude-sonnet-4-6': standard(3, 15),
  'claude-sonnet-5': standard(2, 10),
  'claude-sonnet-5-5': standard(2, 10),
  'claude-3-7-sonnet': standard(3, 15),
  'claude-haiku-4-5': standard(1, 5),
  'claude-3-5-haiku': standard(0.8, 4),
  'claude-fable-5': standard(10, 50),
  'claude-fable-5-1': { ...standard(10, 50), cache_read: 0.25 },
  'claude-mythos-5': standard(10, 50),
  'claude-mythos-5-1': { ...standard(10, 50), cache_read: 0.25 },
};

/**
 * The price of a model: exact id, else without a `-YYYYMMDD` date or a `[1m]` suffix.
 * @param model the `message.model`
 * @param table the price table (default `PRICES`)
 * @returns the price, or `undefined` for an unknown model (reported, never priced as zero silently)
 */
export function priceFor(model: string, table: Readonly<Record<string, Price>> = PRICES): Price | undefined {
  // own keys only: a model named `constructor` or `__proto__` is not priced by Object.prototype
  const own = (id: string): Price | undefined => (Object.hasOwn(table, id) ? table[id] : undefined);
  return own(model) ?? own(model.replace(/\[1m\]$/, '').replace(/-\d{8}$/, ''));
}

/**
 * `priceFor` over one table, each model looked up once (a report over a folder prices thousands of
 * responses of a few models).
 * @param table the price table (default `PRICES`)
 * @returns the price of a model, or `undefined` for an unknown one
 */
export function pricer(table: Readonly<Record<string, Price>> = PRICES): (model: string) => Price | undefined {
  const known = new Map<string, Price | undefined>();
  return (model) => {
    let price = known.get(model);
    if (price === undefined && !known.has(model)) known.set(model, (price = priceFor(model, table)));
    return price;
  };
}
