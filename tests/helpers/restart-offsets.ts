import assert from 'node:assert/strict';
import { openIndexForRead } from '../../src/index-db/open-index.ts';
import type { Restart } from '../../src/index-db/restart.ts';

/**
 * Each file's restart offset (`restarts`: where an append is read from), by path.
 * @param path the index
 */
export function restartOffsets(path: string): Map<string, number> {
  const db = openIndexForRead(path);
  if (typeof db === 'string') assert.fail(db);
  const rows = db.all('SELECT path, restart_json FROM restarts');
  db.close();
  return new Map(
    rows.map((r) => [String(r['path']), (JSON.parse(String(r['restart_json'])) as Restart).point.byteOffset]),
  );
}
