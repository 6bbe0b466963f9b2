import type { Database, SqlValue } from './database.ts';

/**
 * A query's rows as arrays of values, read through one JSON text (`json_group_array(json_array(…))`): the binding
 * hands a result over value by value (42 ms of CPU for the 5,001 rows of `files`, 8 ms as one text), and cuts a text at
 * its first NUL, which JSON keeps. A real comes back with 15 significant digits: wrap one that must be exact (a time
 * compared with a `stat`'s) in {@link exactReal} and read it with `Number`.
 * @param db the index
 * @param columns the SQL expressions of the values, in order
 * @param from the rest of the query after `SELECT …` (`FROM turns WHERE session_key = ?`)
 * @param params its parameters
 * @returns the rows, each its values in `columns`' order (text, number or `null`)
 */
export function jsonRows(
  db: Database,
  columns: readonly string[],
  from: string,
  params: readonly SqlValue[] = [],
): Array<Array<string | number | null>> {
  const text = db.all(`SELECT json_group_array(json_array(${columns.join(', ')})) AS rows ${from}`, params)[0]?.[
    'rows'
  ];
  return JSON.parse(typeof text === 'string' ? text : '[]') as Array<Array<string | number | null>>;
}

/**
 * A real column as `jsonRows` keeps it exact: its 17 significant digits as text (`Number` reads it back).
 * @param column the SQL expression
 * @returns the expression to select
 */
export function exactReal(column: string): string {
  return `printf('%!.17g', ${column})`;
}
