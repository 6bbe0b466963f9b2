/**
 * DuckDB (`@duckdb/node-api`, a dev dependency whose binary ships in its npm platform package) for
 * tests that read the lake back as an engine would.
 */
import { DuckDBInstance } from '@duckdb/node-api';

/**
 * Runs one query in a fresh in-memory database.
 * @param sql the query
 * @returns its rows as JSON-safe objects (64-bit integers as strings)
 */
export async function duckdb(sql: string): Promise<Array<Record<string, unknown>>> {
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  try {
    return (await connection.runAndReadAll(sql)).getRowObjectsJson() as Array<Record<string, unknown>>;
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}
