import type { ResultPayload } from '../model/types.ts';
import { safeText } from './safe-text.ts';
import { plural } from '../text/format-count.ts';

/**
 * A stream `result` in one line, as `romp stream`'s outline and `romp cat` print it: `result success:
 * 3 turns, 12 s, $0.04` (its `subtype`, `num_turns`, `duration_ms`, `total_cost_usd` in USD).
 * @param r the result atom's payload
 * @returns the line, its subtype escaped
 */
export function formatResult(r: ResultPayload): string {
  return `result ${safeText(r.subtype)}: ${plural(r.num_turns, 'turn')}, ${formatDuration(r.duration_ms)}, $${r.total_cost_usd.toFixed(2)}`;
}

/**
 * A duration to read at a glance: `12 s`, `4 min`, `1 h 05 min`.
 * @param ms milliseconds
 * @returns the text; `time unknown` without a finite, non-negative duration
 */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return 'time unknown';
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.round(s / 60);
  return m < 60 ? `${m} min` : `${Math.floor(m / 60)} h ${String(m % 60).padStart(2, '0')} min`;
}
