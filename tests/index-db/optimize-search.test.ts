import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { openIndexForRead } from '../../src/index-db/open-index.ts';
import { OPTIMIZE_AFTER_FILES } from '../../src/index-db/optimize-search.ts';
import { updateIndex } from '../../src/index-db/update-index.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { user } from '../helpers/transcript.ts';

/** Segments of each full-text index (FTS5's `_idx` table names each segment's pages). */
function segments(path: string): number[] {
  const db = openIndexForRead(path);
  if (typeof db === 'string') assert.fail(db);
  const n = ['blocks_fts', 'blocks_trigram'].map((t) =>
    Number(db.all(`SELECT count(DISTINCT segid) AS n FROM ${t}_idx`)[0]?.['n']),
  );
  db.close();
  return n;
}

/** `files` one-line sessions in a folder, each an hour older than the one before it in the walk's order (the first
 * `from` hours older than the newest): every file's block goes back in rowid order. */
function addSessions(dir: string, files: number, from = 0): void {
  mkdirSync(join(dir, '-work-a'), { recursive: true });
  for (let i = 0; i < files; i++) {
    const id = `s${String(from + i).padStart(4, '0')}`;
    writeFileSync(
      join(dir, '-work-a', `${id}.jsonl`),
      `${JSON.stringify({ ...user('u1', null, `the marmot number ${from + i}`, (10_000 - from - i) * 3600), sessionId: id })}\n`,
    );
  }
}

/** Refreshes the index at `path` from `dir`, which has `files` files new to it. */
async function refresh(path: string, dir: string, files: number): Promise<void> {
  const report = await updateIndex(path, {
    projectsDir: dir,
    workers: 0,
    onDiagnostic: () => assert.fail('new index'),
  });
  assert.equal(report?.added, files);
}

test('a refresh makes its full-text entries in id order: one segment for files read going back in time', async () => {
  const dir = tempDir('romp-optimize-');
  const path = join(tempDir('romp-home-'), 'index.db');
  addSessions(dir, OPTIMIZE_AFTER_FILES - 1);
  await refresh(path, dir, OPTIMIZE_AFTER_FILES - 1);
  assert.deepEqual(segments(path), [1, 1]);
});

test('a refresh that reads OPTIMIZE_AFTER_FILES files merges each full-text index into one segment; one fewer does not', async () => {
  const dir = tempDir('romp-optimize-');
  const path = join(tempDir('romp-home-'), 'index.db');
  addSessions(dir, 1);
  await refresh(path, dir, 1);
  addSessions(dir, OPTIMIZE_AFTER_FILES - 1, 1);
  await refresh(path, dir, OPTIMIZE_AFTER_FILES - 1);
  // a segment of each refresh
  assert.deepEqual(segments(path), [2, 2]);
  addSessions(dir, OPTIMIZE_AFTER_FILES, OPTIMIZE_AFTER_FILES);
  await refresh(path, dir, OPTIMIZE_AFTER_FILES);
  assert.deepEqual(segments(path), [1, 1]);
});
