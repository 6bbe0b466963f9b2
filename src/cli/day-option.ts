import { UserError } from './cli-io.ts';

/**
 * A `--since` / `--until` day, checked: `YYYYMMDD` or `YYYY-MM-DD`, returned as `YYYY-MM-DD`. A day the
 * calendar lacks (a 13th month, 30 February, which `Date` would roll over into the next month) is a
 * usage error, never a day the user did not mean.
 * @param option the option's name, for the message (`--since`)
 * @param value what was given
 * @returns the day, `YYYY-MM-DD`
 * @throws UserError (exit 2) when it is not a day
 */
export function dayOption(option: string, value: string): string {
  const match = /^(\d{4})-?(\d{2})-?(\d{2})$/.exec(value);
  const day = match === null ? '' : `${match[1]}-${match[2]}-${match[3]}`;
  const t = Date.parse(`${day}T00:00:00Z`);
  if (match === null || Number.isNaN(t) || new Date(t).toISOString().slice(0, 10) !== day)
    throw new UserError(`${option} ${value}: give a day as YYYY-MM-DD or YYYYMMDD`);
  return day;
}
