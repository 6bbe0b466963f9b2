import { ROW_ENTITIES, type Cell, type RowEntity } from '../rows/row-types.ts';

/** One of the lake's datasets: the index's tables (docs/index.md), one dataset each. */
export type Entity = RowEntity;
export { ROW_ENTITIES as ENTITIES };

/** A column's Parquet type: `STRING` (UTF-8), `INT64`, `DOUBLE` or `BOOLEAN`. */
export type ColumnType = 'STRING' | 'INT64' | 'DOUBLE' | 'BOOLEAN';

const BOOLEAN = new Set(['ended', 'lower_bound', 'on_path', 'is_error', 'is_sidechain']);
const DOUBLE = new Set(['cost_usd']);
const INT64 = new Set([
  'first_t',
  'last_t',
  'turns',
  'atoms',
  'responses',
  'unpriced',
  'index',
  't',
  'end',
  'duration_ms',
  'subagents',
  'turn_index',
  'seq',
  'line',
  'byte_offset',
  'text_length',
  'input_tokens',
  'output_tokens',
  'cache_creation_input_tokens',
  'ephemeral_5m_input_tokens',
  'ephemeral_1h_input_tokens',
  'cache_read_input_tokens',
]);

/**
 * The Parquet type of a row column, by its name (the row types of `src/rows/row-types.ts` give every
 * column one JavaScript type): booleans, `cost_usd` as DOUBLE (USD), counts, tokens and epoch-ms
 * times as INT64, everything else a UTF-8 string. The same name has the same type in every entity and
 * every part, so a reader can union them.
 * @param column the column's name
 * @returns its type
 */
export function columnType(column: string): ColumnType {
  return BOOLEAN.has(column) ? 'BOOLEAN' : DOUBLE.has(column) ? 'DOUBLE' : INT64.has(column) ? 'INT64' : 'STRING';
}

/**
 * A row's cell as the Parquet writer takes it: INT64 as a bigint (a fraction truncated, a non-finite
 * number `null`), the rest as it is.
 * @param column the column's name
 * @param value the cell
 * @returns the value to write
 */
export function parquetCell(column: string, value: Cell | undefined): string | number | boolean | bigint | null {
  if (value === undefined || value === null) return null;
  if (columnType(column) === 'INT64')
    return typeof value === 'number' && Number.isFinite(value) ? BigInt(Math.trunc(value)) : null;
  return value;
}
