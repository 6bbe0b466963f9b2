import assert from 'node:assert/strict';
import { existsSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { makeDir } from '../../src/fs/make-dir.ts';
import { tempDir } from '../helpers/temp-dir.ts';

test('makeDir makes the missing levels, leaves an existing folder, and names a file in the way', () => {
  const root = tempDir('romp-make-dir-');
  makeDir(join(root, 'a', 'b', 'c'));
  assert.ok(statSync(join(root, 'a', 'b', 'c')).isDirectory());
  makeDir(join(root, 'a'));
  writeFileSync(join(root, 'file'), 'x');
  assert.throws(() => makeDir(join(root, 'file', 'd')), { code: 'ENOTDIR' });
});

// Node 20's recursive mkdir spins for ever here (each create answers ENOENT); makeDir throws at once
test('makeDir under /proc throws ENOENT instead of looping', { skip: !existsSync('/proc/self') }, () => {
  assert.throws(() => makeDir('/proc/romp-none/x'), { code: 'ENOENT' });
});
