import { createRequire } from 'node:module';
import type LibsqlDatabase from 'libsql';

/** A value SQLite stores: booleans are written as 1 and 0. */
export type SqlValue = string | number | bigint | boolean | null | Uint8Array;

/** A query's result as columns and rows of values (column names as SQLite gives them, in order). */
export interface SqlResult {
  columns: string[];
  rows: SqlValue[][];
}

/**
 * The one connection type the index uses: a thin face over the SQLite binding (`libsql`, which speaks
 * better-sqlite3's API), so that moving to `node:sqlite` changes this file only. Synchronous, as both
 * bindings are. Statements are prepared once and kept.
 */
export interface Database {
  /** Runs statements with no parameters and no result (DDL, pragmas). */
  exec(sql: string): void;
  /** Runs one statement with positional parameters; `changes` is the rows it wrote. */
  run(sql: string, params?: readonly SqlValue[]): { changes: number };
  /** Runs a query; its rows as objects without a prototype (a column named `__proto__` is a column). */
  all(sql: string, params?: readonly SqlValue[]): Array<Record<string, SqlValue>>;
  /**
   * Runs a query; its column names and rows as arrays (`romp sql`). Integers are exact: a `number` when
   * it is one (within ±2^53 − 1), else a `bigint`, never rounded.
   */
  query(sql: string, params?: readonly SqlValue[]): SqlResult;
  /**
   * Whether a statement only reads: it returns rows, is no ATTACH/DETACH/PRAGMA, and calls no function
   * that writes outside the database (the binding's `writefile`, found in the statement's program);
   * throws for SQL that does not parse.
   */
  readsOnly(sql: string): boolean;
  /** Runs `fn` in one `BEGIN IMMEDIATE` transaction (the write lock taken first): all or nothing. */
  transaction<T>(fn: () => T): T;
  close(): void;
}

/** Options of `openDatabase`. */
export interface OpenOptions {
  /** Refuse every write on this connection (`PRAGMA query_only`), and `ATTACH`. */
  readOnly?: boolean;
  /** How long a statement waits for another connection's write lock (ms); default 30 000. */
  busyTimeoutMs?: number;
  /** What to throw instead when a statement finds the file damaged (`SQLITE_CORRUPT`); default SQLite's error. */
  onCorrupt?: (error: Error) => Error;
}

const require = createRequire(import.meta.url);

/** Distinct queries whose statements `all` keeps prepared (more: it starts again). */
const QUERIES_KEPT = 256;

type Statement = LibsqlDatabase.Statement<unknown[]>;

/**
 * Opens (creating when missing) an SQLite database file, in WAL mode (readers never wait for the one
 * writer), waiting up to `busyTimeoutMs` for a lock.
 * @param path the database file
 * @param options read-only, busy timeout
 * @returns the connection
 * @throws the binding's error when the file is not a database (`SQLITE_NOTADB`) or cannot be opened
 */
export function openDatabase(path: string, options: OpenOptions = {}): Database {
  const Libsql = require('libsql') as typeof LibsqlDatabase;
  const db = new Libsql(path);
  const statements = new Map<string, Statement>();
  const prepared = (sql: string): Statement => {
    let statement = statements.get(sql);
    if (statement === undefined) {
      statement = db.prepare<unknown[]>(sql);
      statements.set(sql, statement);
    }
    return statement;
  };
  const bind = (params: readonly SqlValue[]): unknown[] => params.map((p) => (p === true ? 1 : p === false ? 0 : p));
  try {
    db.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.floor(options.busyTimeoutMs ?? 30_000))}`);
    // pages read through the OS's cache, not copied into SQLite's: searches read the full-text doclists
    db.exec('PRAGMA mmap_size = 1073741824; PRAGMA cache_size = -65536');
    if (options.readOnly === true) db.exec('PRAGMA query_only = ON');
    else db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL');
  } catch (error) {
    db.close();
    throw error;
  }
  // `all`'s statements, prepared once (in raw mode, without exact integers): the queries of `blockIds` took 2.5 s of a
  // build's CPU, 0.7 s of it preparing them; at most QUERIES_KEPT (a search's text grows with its words)
  const queries = new Map<string, Statement>();
  const select = (sql: string, params: readonly SqlValue[], exact: boolean): SqlResult => {
    let statement = exact ? undefined : queries.get(sql);
    if (statement === undefined) {
      statement = db.prepare<unknown[]>(sql).raw(true).safeIntegers(exact);
      if (!exact) {
        if (queries.size >= QUERIES_KEPT) queries.clear();
        queries.set(sql, statement);
      }
    }
    // asked at each run: a schema changed since it was prepared changes what `SELECT *` gives
    const columns = statement.columns().map((c) => c.name);
    const rows = statement.all(...bind(params)) as SqlValue[][];
    if (exact) for (const row of rows) row.forEach((v, i) => (row[i] = typeof v === 'bigint' ? exactNumber(v) : v));
    return { columns, rows };
  };
  // a damaged page is met by whichever statement reads it: each call says so the one way
  const guard = <T>(fn: () => T): T => {
    try {
      return fn();
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      throw code === 'SQLITE_CORRUPT' && options.onCorrupt !== undefined ? options.onCorrupt(error as Error) : error;
    }
  };
  return {
    exec: (sql) => guard(() => db.exec(sql)),
    run: (sql, params = []) => guard(() => ({ changes: prepared(sql).run(...bind(params)).changes })),
    all: (sql, params = []) =>
      guard(() => {
        const { columns, rows } = select(sql, params, false);
        return rows.map((row) => {
          const object = Object.create(null) as Record<string, SqlValue>;
          columns.forEach((c, i) => (object[c] = row[i] as SqlValue));
          return object;
        });
      }),
    query: (sql, params = []) => guard(() => select(sql, params, true)),
    readsOnly: (sql) => db.prepare(sql).reader && !/^\s*(attach|detach|pragma)\b/i.test(sql) && !writesFiles(db, sql),
    transaction: <T>(fn: () => T): T => guard(() => db.transaction(fn).immediate()),
    close: () => db.close(),
  };
}

/** A 64-bit integer as a number when that keeps it exact, else as itself. */
function exactNumber(v: bigint): number | bigint {
  return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v;
}

/**
 * Whether a statement's program calls a function that writes a file: libsql builds in SQLite's fileio
 * extension, whose `writefile(path, data)` writes anywhere the user may, past `PRAGMA query_only`.
 * Read from `EXPLAIN` (a function call's P4, column 5, is `name(nArg)`), so a quoted or aliased name is caught too.
 */
function writesFiles(db: InstanceType<typeof LibsqlDatabase>, sql: string): boolean {
  const program = db.prepare(`EXPLAIN ${sql}`).raw(true).all() as unknown[][];
  return program.some((op) => /Func/.test(String(op[1])) && /^writefile\(/i.test(String(op[5])));
}
