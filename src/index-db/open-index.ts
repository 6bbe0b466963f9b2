import { existsSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { diagnostic, type OnDiagnostic } from '../diagnostics/diagnostic.ts';
import { openDatabase, type Database } from './database.ts';
import { INDEX_APP, MIGRATIONS, SCHEMA_SQL, SCHEMA_VERSION } from './schema.ts';
import { makeDir } from '../fs/make-dir.ts';
import { clearDamage, damageOf, markDamaged } from './index-damage.ts';

/**
 * Opens romp's index for writing: creates it (and its folder) when missing, migrates an older schema,
 * and replaces anything that is not a romp index of a version it can take (not SQLite, corrupt, another
 * program's database, a newer schema, one a statement found damaged: `markDamaged`) with a fresh one, reporting
 * `INDEX_RECREATED`: the index is derived from the transcripts, so nothing in it is ever trusted over them. A
 * statement that meets a damaged page later throws `markDamaged`'s error (code `ROMP_INDEX_DAMAGED`).
 * @param path the database file (`$ROMP_HOME/index.db`)
 * @param onDiagnostic receives `INDEX_RECREATED`
 * @returns the open connection (WAL)
 */
export function openIndexForWrite(path: string, onDiagnostic: OnDiagnostic): Database {
  makeDir(dirname(path));
  let db: Database | undefined;
  const damage = damageOf(path);
  let problem: string | undefined = damage === undefined ? undefined : `damaged (${damage})`;
  const onCorrupt = (error: Error): Error => markDamaged(path, error);
  if (problem === undefined)
    try {
      db = openDatabase(path, { onCorrupt });
      problem = prepare(db);
    } catch (error) {
      problem = `not an SQLite database (${(error as Error).message})`;
    }
  if (problem === undefined && db !== undefined) return db;
  db?.close();
  for (const file of [path, `${path}-wal`, `${path}-shm`]) rmSync(file, { force: true });
  clearDamage(path);
  onDiagnostic(diagnostic('INDEX_RECREATED', `${problem ?? 'unreadable'}: deleted and built again`, { file: path }));
  db = openDatabase(path, { onCorrupt });
  const again = prepare(db);
  if (again !== undefined) throw new Error(`${path}: cannot create the index: ${again}`);
  return db;
}

/**
 * Opens romp's index for reading only (`romp sql`, `romp search --no-refresh`).
 * @param path the database file
 * @returns the connection, or a sentence saying why there is no usable index
 */
export function openIndexForRead(path: string): Database | string {
  if (!existsSync(path)) return 'no index yet';
  const damage = damageOf(path);
  if (damage !== undefined) return `the index is damaged (${damage}): the next romp index builds it again`;
  let db: Database | undefined;
  try {
    db = openDatabase(path, { readOnly: true, onCorrupt: (error) => markDamaged(path, error) });
    const problem = check(db);
    if (problem === undefined) return db;
    db.close();
    return problem;
  } catch (error) {
    db?.close();
    return `not an SQLite database (${(error as Error).message})`;
  }
}

/** Creates or migrates the schema; a sentence when the database is not one this romp can use. */
function prepare(db: Database): string | undefined {
  const tables = db.all("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table'")[0]?.['n'];
  if (tables === 0) {
    db.transaction(() => {
      db.exec(SCHEMA_SQL);
      db.run("INSERT INTO meta (key, value) VALUES ('app', ?), ('schema_version', ?)", [
        INDEX_APP,
        String(SCHEMA_VERSION),
      ]);
    });
    return undefined;
  }
  const problem = check(db, true);
  if (problem !== undefined) return problem;
  for (let v = version(db); v < SCHEMA_VERSION; v++) {
    const step = MIGRATIONS[v] as string;
    db.transaction(() => {
      db.exec(step);
      db.run("UPDATE meta SET value = ? WHERE key = 'schema_version'", [String(v + 1)]);
    });
  }
  return undefined;
}

/** Why the database is not a romp index this romp reads (`undefined` when it is). */
function check(db: Database, migratable = false): string | undefined {
  const app =
    db.all("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'meta'").length === 0
      ? undefined
      : db.all("SELECT value FROM meta WHERE key = 'app'")[0]?.['value'];
  if (app !== INDEX_APP) return 'not a romp index (an SQLite database without meta.app = romp-index)';
  const v = version(db);
  if (v === SCHEMA_VERSION) return undefined;
  if (
    migratable &&
    v < SCHEMA_VERSION &&
    Array.from({ length: SCHEMA_VERSION - v }, (_, i) => MIGRATIONS[v + i]).every((m) => m !== undefined)
  )
    return undefined;
  return `schema version ${v}, this romp reads ${SCHEMA_VERSION}`;
}

function version(db: Database): number {
  return Number(db.all("SELECT value FROM meta WHERE key = 'schema_version'")[0]?.['value'] ?? NaN);
}
