import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Database } from '../../src/index-db/database.ts';
import { openIndexForWrite } from '../../src/index-db/open-index.ts';
import { SearchQueue } from '../../src/index-db/search-queue.ts';
import { tempDir } from '../helpers/temp-dir.ts';

/** Writes one typed block, id `id`, of text `text`. */
function block(db: Database, id: number, text: string): void {
  db.run(
    `INSERT INTO blocks (id, key, session_key, atom_key, turn_key, "index", type, role, author, tool_name, tool_use_id,
      text, text_length, is_error, on_path) VALUES (?, ?, 's', ?, NULL, 0, 'text', 'typed', 'human', NULL, NULL, ?, ?, 0, 1)`,
    [id, `u${id}:0`, `u${id}`, text, text.length],
  );
}

const hits = (db: Database, word: string): number[] =>
  db.all('SELECT rowid FROM blocks_fts WHERE blocks_fts MATCH ? ORDER BY rowid', [word]).map((r) => Number(r['rowid']));

test('SearchQueue: a block deleted or moved while pending gets no full-text delete; a committed one does', () => {
  const db = openIndexForWrite(join(tempDir('romp-queue-'), 'index.db'), () => assert.fail('new index'));
  const queue = new SearchQueue(db);
  db.exec('BEGIN IMMEDIATE');
  block(db, 1, 'the aardvark');
  block(db, 2, 'the badger');
  queue.add([1, 2]);
  queue.flush();
  db.exec('COMMIT; BEGIN IMMEDIATE');
  // pending: 3 written, then deleted before any flush; 4 written, then moved to 6
  block(db, 3, 'the coati');
  block(db, 4, 'the dingo');
  queue.add([3, 4]);
  queue.unindex('id = ?', [3]);
  db.run('DELETE FROM blocks WHERE id = 3');
  queue.move([[4, 6]]);
  db.run('UPDATE blocks SET id = 6 WHERE id = 4');
  // committed: 1 deleted, 2 moved to 5
  queue.unindex('id = ?', [1]);
  db.run('DELETE FROM blocks WHERE id = 1');
  queue.move([[2, 5]]);
  db.run('UPDATE blocks SET id = 5 WHERE id = 2');
  queue.flush();
  db.exec('COMMIT');
  for (const fts of ['blocks_fts', 'blocks_trigram'])
    db.run(`INSERT INTO ${fts}(${fts}, rank) VALUES ('integrity-check', 1)`);
  assert.deepEqual(
    ['aardvark', 'badger', 'coati', 'dingo'].map((w) => hits(db, w)),
    [[], [5], [], [6]],
  );
  db.close();
});
