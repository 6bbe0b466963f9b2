/** The viewer's cache key: a rewrite that keeps size and mtime, or a replacement by rename, still changes it. */
import assert from 'node:assert/strict';
import { mkdtempSync, renameSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import { statStamp } from '../../src/serve/stat-stamp.ts';

test('statStamp: device, inode, size, mtime, ctime; a rewrite with size and mtime set back changes it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'romp-stamp-'));
  const path = join(dir, 's.jsonl');
  writeFileSync(path, '{"a":1}\n');
  // a whole second, which utimes sets back exactly
  utimesSync(path, 1e9, 1e9);
  const info = statSync(path);
  const first = await statStamp([path, join(dir, 'gone.jsonl')]);
  assert.equal(first, `${info.dev}:${info.ino}:8:${info.mtimeMs}:${info.ctimeMs}|-`);
  assert.equal(await statStamp([path, join(dir, 'gone.jsonl')]), first);
  await sleep(20);
  writeFileSync(path, '{"b":2}\n');
  utimesSync(path, 1e9, 1e9);
  const rewritten = statSync(path);
  assert.equal(rewritten.size, info.size);
  assert.equal(rewritten.mtimeMs, info.mtimeMs);
  assert.notEqual(await statStamp([path]), first.split('|')[0]);
  // replaced by a rename: another inode, same size and mtime
  const other = join(dir, 'o.jsonl');
  writeFileSync(other, '{"c":3}\n');
  utimesSync(other, 1e9, 1e9);
  const before = await statStamp([path]);
  renameSync(other, path);
  assert.notEqual(await statStamp([path]), before);
});
