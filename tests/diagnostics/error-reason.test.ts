import assert from 'node:assert/strict';
import { mkdirSync, openSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { errorReason } from '../../src/diagnostics/error-reason.ts';
import { tempDir } from '../helpers/temp-dir.ts';

/** What a call threw. */
function thrown(f: () => unknown): unknown {
  try {
    f();
  } catch (error) {
    return error;
  }
  throw new Error('nothing thrown');
}

test('errorReason: a system error as its words and code, without the path; any other error as its message', () => {
  const dir = tempDir('romp-error-reason-');
  const loop = join(dir, 'loop');
  symlinkSync(loop, loop);
  mkdirSync(join(dir, 'folder'));
  assert.deepEqual(
    [
      errorReason(thrown(() => openSync(join(dir, 'none.jsonl'), 'r'))),
      errorReason(thrown(() => readFileSync(loop))),
      errorReason(thrown(() => readFileSync(join(dir, 'folder')))),
      errorReason(new Error('not a regular file (a FIFO)')),
      errorReason('plain'),
    ],
    [
      'no such file or directory (ENOENT)',
      'too many symbolic links encountered (ELOOP)',
      'illegal operation on a directory (EISDIR)',
      'not a regular file (a FIFO)',
      'plain',
    ],
  );
});
