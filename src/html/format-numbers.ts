/**
 * USD as a page or a Markdown export shows it: `$0.0123` under a dollar, `$1.23` above.
 * @param value USD
 * @returns the text
 */
export function usd(value: number): string {
  return `$${value < 1 ? value.toFixed(4) : value.toFixed(2)}`;
}

/**
 * A duration in words: `850 ms`, `12 s`, `3 min 20 s`, `2 h 5 min`.
 * @param ms milliseconds
 * @returns the text
 */
export function duration(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))} ms`;
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min${s % 60 === 0 ? '' : ` ${s % 60} s`}`;
  return `${Math.floor(s / 3600)} h${Math.floor((s % 3600) / 60) === 0 ? '' : ` ${Math.floor((s % 3600) / 60)} min`}`;
}

/**
 * A count of tokens, short: `950`, `12.3k`, `1.2M`.
 * @param n tokens
 * @returns the text
 */
export function tokens(n: number): string {
  return n < 1000 ? String(n) : n < 1e6 ? `${(n / 1000).toFixed(1)}k` : `${(n / 1e6).toFixed(1)}M`;
}
