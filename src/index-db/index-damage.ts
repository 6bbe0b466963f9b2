import { readFileSync, rmSync, writeFileSync } from 'node:fs';

/** The `code` of the error a command meets when SQLite finds the index damaged (`markDamaged`). */
export const INDEX_DAMAGED = 'ROMP_INDEX_DAMAGED';

/** The file beside the index that says it is damaged (`index.db.damaged`), and why. */
function markOf(path: string): string {
  return `${path}.damaged`;
}

/**
 * Records that SQLite found the index damaged (`SQLITE_CORRUPT`: a page in the middle of the file, which opening it
 * does not read): the next `openIndexForWrite` deletes it and builds it again (`INDEX_RECREATED`), and readers refuse
 * it until then. The mark is a file beside the index, written even when the index cannot be.
 * @param path the index (`$ROMP_HOME/index.db`)
 * @param error SQLite's error
 * @returns the error to throw instead: `code` {@link INDEX_DAMAGED}, a message for one line
 */
export function markDamaged(path: string, error: Error): Error {
  try {
    writeFileSync(markOf(path), error.message);
  } catch {
    // a romp home that cannot be written: the error below still says what to do
  }
  return Object.assign(new Error(`${path} is damaged (${error.message}): the next romp index builds it again`), {
    code: INDEX_DAMAGED,
  });
}

/**
 * Why the index was marked damaged (`markDamaged`), if it was.
 * @param path the index
 * @returns SQLite's message, or `undefined`
 */
export function damageOf(path: string): string | undefined {
  try {
    return readFileSync(markOf(path), 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * Takes the mark away once the index was built again.
 * @param path the index
 */
export function clearDamage(path: string): void {
  rmSync(markOf(path), { force: true });
}
