/**
 * A transcript over V8's string limit (~512 MB) parses by streaming. Slow and large, so it runs only
 * with ROMP_BIG_TESTS=1 (and in `npm run bench`).
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { generateTranscript } from '../bench/generate.ts';
import { parseSession } from '../src/session/parse-session.ts';

test(
  'a 600 MB transcript parses whole, line for line',
  {
    skip:
      process.env['ROMP_BIG_TESTS'] === '1'
        ? false
        : 'set ROMP_BIG_TESTS=1 to run it (writes 600 MB to the temp folder)',
  },
  async () => {
    const path = join(tmpdir(), `romp-big-${process.pid}.jsonl`);
    try {
      const written = await generateTranscript(path, 600 * 1024 * 1024);
      assert.ok(written.bytes > 512 * 1024 * 1024);
      const { session, diagnostics } = await parseSession([path]);
      assert.deepEqual(diagnostics, []);
      assert.equal(session.turns.length, written.turns);
      const atoms = session.turns.reduce((n, t) => n + t.atoms.length, 0);
      assert.equal(atoms + session.records.length, written.lines);
    } finally {
      rmSync(path, { force: true });
    }
  },
);
