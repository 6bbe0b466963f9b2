import { existsSync } from 'node:fs';
import type { Database } from '../index-db/database.ts';
import { indexPath } from '../index-db/index-path.ts';
import { rompHomeFolder } from './romp-home-folder.ts';

/**
 * romp's index (`$ROMP_HOME/index.db`, docs/index.md) opened read-only, for a command that takes what
 * it holds of the files that did not change (`romp ls`, `romp usage`).
 * @param home `--romp-home`, else `$ROMP_HOME`, else `~/.romp`
 * @returns the index; `undefined` (read the files) when there is none, or none this romp reads
 */
export async function readIndex(home: string | undefined): Promise<Database | undefined> {
  const path = indexPath(rompHomeFolder(home));
  if (!existsSync(path)) return undefined;
  const { openIndexForRead } = await import('../index-db/open-index.ts');
  const db = openIndexForRead(path);
  return typeof db === 'string' ? undefined : db;
}
