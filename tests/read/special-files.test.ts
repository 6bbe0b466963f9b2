import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { cli } from '../../src/cli/cli.ts';
import { registerSession } from '../../src/romp-home/registry.ts';
import { parseSession } from '../../src/session/parse-session.ts';
import { fifo } from '../helpers/special-files.ts';
import { tempDir } from '../helpers/temp-dir.ts';

test('parseSession given a FIFO or /dev/zero: FILE_UNREADABLE naming what it is, no hang, no endless read', async () => {
  const path = fifo(tempDir('romp-fifo-'), 's.jsonl');
  const results = await Promise.all([parseSession([path]), parseSession(['/dev/zero'])]);
  assert.deepEqual(
    results.map((r) => r.diagnostics.map((d) => [d.code, d.file, d.message])),
    [
      [['FILE_UNREADABLE', path, 'cannot read: not a regular file (a FIFO)']],
      [['FILE_UNREADABLE', '/dev/zero', 'cannot read: not a regular file (a character device)']],
    ],
  );
});

test('romp show --session whose registered file is a FIFO: one romp: line, exit 2, no hang', async () => {
  const dir = tempDir('romp-fifo-');
  const path = fifo(dir, 'f.jsonl');
  await registerSession(join(dir, 'home'), { rompUuid: 'R', files: [{ fsid: 'f', path }] });
  let err = '';
  const code = await cli(['show', '--session', 'R', '--romp-home', join(dir, 'home')], {
    stdout: { write: () => true },
    stderr: { write: (s: string) => (err += s) },
  });
  assert.deepEqual([code, err], [2, `romp: ${path}: cannot read: not a regular file (a FIFO)\n`]);
});
