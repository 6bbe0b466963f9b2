import assert from 'node:assert/strict';
import { openIndexForRead } from '../../src/index-db/open-index.ts';
import type { NoRestart, Restart } from '../../src/index-db/restart.ts';

/**
 * Each file's restart offset (`restarts`: where an append is read from), by path.
 * @param path the index
 */
export function restartOffsets(path: string): Map<string, number> {
  const db = openIndexForRead(path);
  if (typeof db === 'string') assert.fail(db);
  const rows = db.all('SELECT path, restart_json FROM restarts');
  db.close();
  // a file with none (`{"none": why}`) is read whole at its next append
  return new Map(
    rows.flatMap((r) => {
      const restart = JSON.parse(String(r['restart_json'])) as Restart | NoRestart;
      return 'none' in restart ? [] : [[String(r['path']), restart.point.byteOffset] as const];
    }),
  );
}
