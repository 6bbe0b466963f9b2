import type { Totals } from '../usage/count-usage.ts';

/**
 * A cost as ccusage users read it (`$12.34`); one that leaves out unpriced responses says so (`≥ $1.20
 * (3 unpriced)`, `no price`), never a bare sum. Plain code, no `Intl` currency formatter (~25 ms at start-up).
 * @param t the totals (`countUsage`)
 * @returns the cost text
 */
export function formatCost(t: Totals): string {
  const sum = `$${t.cost_usd.toFixed(2)}`;
  return t.unpriced === 0 ? sum : t.unpriced === t.responses ? 'no price' : `≥ ${sum} (${t.unpriced} unpriced)`;
}
