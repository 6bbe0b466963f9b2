import { dirname } from 'node:path';
import type { OnDiagnostic } from '../diagnostics/diagnostic.ts';
import { openIndexForWrite } from './open-index.ts';
import { OPTIMIZE_AFTER_FILES, optimizeSearch } from './optimize-search.ts';
import { refreshIndex, type RefreshOptions, type RefreshReport } from './refresh-index.ts';
import { makeDir } from '../fs/make-dir.ts';

export { indexPath } from './index-path.ts';

/** Options of `updateIndex`. */
export interface UpdateOptions extends RefreshOptions {
  onDiagnostic: OnDiagnostic;
  /** Called once when another process holds the write lock and this one waits for it. */
  onWait?: () => void;
  /** Give up instead of waiting when another process is writing (`romp search`'s refresh). */
  noWait?: boolean;
}

/**
 * Refreshes the index at `path` under its write lock (`<path>.lock`, proper-lockfile): one writer at a
 * time; a second `romp index` waits for the first (readers never wait: WAL). Opens (or recreates:
 * `INDEX_RECREATED`) the database, refreshes it (its full-text indexes merged, `optimizeSearch`, after a refresh that
 * read {@link OPTIMIZE_AFTER_FILES} files or more from the start), closes it.
 * @param path the database file
 * @param options the refresh's, diagnostics, waiting
 * @returns what the refresh did, or `undefined` with `noWait` when another process is writing
 */
export async function updateIndex(path: string, options: UpdateOptions): Promise<RefreshReport | undefined> {
  makeDir(dirname(path));
  const { default: lockfile } = await import('proper-lockfile');
  const lock = { realpath: false, lockfilePath: `${path}.lock`, stale: 30_000, update: 5_000 };
  let release: (() => Promise<void>) | undefined;
  try {
    release = await lockfile.lock(path, lock);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw error;
    if (options.noWait === true) return undefined;
    options.onWait?.();
    release = await lockfile.lock(path, { ...lock, retries: { retries: 100_000, minTimeout: 50, maxTimeout: 500 } });
  }
  try {
    const db = openIndexForWrite(path, options.onDiagnostic);
    try {
      const report = await refreshIndex(db, options);
      if (report.added + report.reread >= OPTIMIZE_AFTER_FILES) optimizeSearch(db);
      return report;
    } finally {
      db.close();
    }
  } finally {
    await release();
  }
}
