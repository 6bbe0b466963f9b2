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

/** A folder of `files` one-line sessions, each an hour older than the one before it in the walk's order: every file's
 * block goes back in rowid order, and FTS5 writes a segment for each. */
function folder(files: number): string {
  const dir = tempDir('romp-optimize-');
  mkdirSync(join(dir, '-work-a'), { recursive: true });
  for (let i = 0; i < files; i++) {
    const id = `s${String(i).padStart(4, '0')}`;
    writeFileSync(
      join(dir, '-work-a', `${id}.jsonl`),
      `${JSON.stringify({ ...user('u1', null, `the marmot number ${i}`, (files - i) * 3600), sessionId: id })}\n`,
    );
  }
  return dir;
}

test('a refresh that reads OPTIMIZE_AFTER_FILES files leaves each full-text index one segment; one fewer does not', async () => {
  for (const [files, merged] of [
    [OPTIMIZE_AFTER_FILES - 1, false],
    [OPTIMIZE_AFTER_FILES, true],
  ] as const) {
    const path = join(tempDir('romp-home-'), 'index.db');
    const report = await updateIndex(path, {
      projectsDir: folder(files),
      workers: 0,
      onDiagnostic: () => assert.fail('new index'),
    });
    assert.equal(report?.added, files);
    const n = segments(path);
    if (merged) assert.deepEqual(n, [1, 1]);
    else
      assert.ok(
        n.every((k) => k > 1),
        `segments ${n.join(', ')}`,
      );
  }
});
