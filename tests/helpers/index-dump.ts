/**
 * An index's rows, table by table, for tests that compare two indexes (a rebuild, an append against a fresh build).
 */
import assert from 'node:assert/strict';
import { openIndexForRead } from '../../src/index-db/open-index.ts';
import { ROW_TABLES } from '../../src/index-db/schema.ts';
import { searchIndex } from '../../src/index-db/search-index.ts';
import { storedParts } from '../../src/index-db/usage-files.ts';

/**
 * Every row of every row table (blocks without their rowid, which depends on the order written) as JSON, one entry per
 * table, then the listings and usage kept (the usage parts folded), then the hits of each query.
 * @param path the index
 * @param queries searches whose hits are compared too
 * @returns `table` or `search q` → its JSON
 */
export function indexTables(path: string, queries: readonly string[] = []): Map<string, string> {
  const db = openIndexForRead(path);
  if (typeof db === 'string') assert.fail(db);
  const out = new Map<string, string>();
  for (const t of ROW_TABLES)
    out.set(
      t,
      JSON.stringify(
        db
          .all(`SELECT * FROM ${t} ORDER BY ${t === 'sessions' ? 'key' : 'session_key, key'}`)
          .map(({ id: _id, ...row }) => row),
      ),
    );
  // the listings and usage kept beside them (`romp ls`, `romp usage`)
  for (const t of ['listings', 'usage_files']) out.set(t, JSON.stringify(db.all(`SELECT * FROM ${t} ORDER BY path`)));
  // the usage groups of each file, its parts folded (an append adds a part where a rebuild has one)
  out.set(
    'usage_parts',
    JSON.stringify(
      db.all('SELECT path, usage_json FROM usage_files ORDER BY path').map((r) => {
        const { groups, ...rest } = storedParts(db, String(r['path']), String(r['usage_json']));
        return [r['path'], [...groups], rest];
      }),
    ),
  );
  for (const q of queries) out.set(`search ${q}`, JSON.stringify(searchIndex(db, q)));
  db.close();
  return out;
}

/**
 * The same as `indexTables`, as one text.
 * @param path the index
 * @param queries searches whose hits are compared too
 * @returns the tables' JSON, then the hits', a line each
 */
export function dumpIndex(path: string, queries: readonly string[] = ['zebra', 'flamingo', 'lamin']): string {
  return [...indexTables(path, queries).values()].join('\n');
}
