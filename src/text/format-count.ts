/**
 * A number as the CLI prints it: thousands separators, as `Intl.NumberFormat('en-US')` would (`1,234,567`,
 * `-1,234.5`), in plain code, so that no printer pays for ICU's number data at start-up (a formatter
 * costs 5–25 ms of CPU to build). Fractions keep at most 3 digits, as that formatter's default.
 * @param n a count (tokens, characters, milliseconds)
 * @returns the digits grouped by three, `NaN` / `∞` as `Intl` spells them
 */
export function formatCount(n: number): string {
  if (Number.isNaN(n)) return 'NaN';
  if (!Number.isFinite(n)) return n > 0 ? '∞' : '-∞';
  const rounded = Math.round(Math.abs(n) * 1000) / 1000;
  const [whole = '0', fraction] = String(rounded).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+$)/g, ',');
  return `${n < 0 && rounded !== 0 ? '-' : ''}${grouped}${fraction === undefined ? '' : `.${fraction}`}`;
}

/**
 * A count and its noun, singular for exactly one: `1 turn`, `2 turns`, `1,204 prompts`. The one place romp
 * makes a noun agree with its number (the CLI, pages, exports).
 * @param n the count
 * @param singular the noun for one (`turn`)
 * @param plural the noun for any other count (default: singular + `s`)
 * @returns `formatCount(n)` and the noun
 */
export function plural(n: number, singular: string, plural = `${singular}s`): string {
  return `${formatCount(n)} ${n === 1 ? singular : plural}`;
}
