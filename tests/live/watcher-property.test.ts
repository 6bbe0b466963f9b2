/**
 * A transcript appended to a file in random chunks (cutting lines anywhere), with `update()` after
 * each: every state equals the one-shot parse of the same bytes' complete lines, and so does the end.
 */
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { SessionWatcher } from '../../src/live/session-watcher.ts';
import type { Session } from '../../src/model/types.ts';
import { parseSession } from '../../src/session/parse-session.ts';
import { corpusSamples, mutate, transcriptArb } from '../helpers/properties.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const comparable = (s: Session): unknown => JSON.parse(JSON.stringify({ ...s, files: s.files.map((f) => f.fsid) }));

async function replay(bytes: Buffer, sizes: number[], view: 'full' | 'context'): Promise<void> {
  const dir = tempDir('romp-live-');
  mkdirSync(join(dir, 'live'));
  mkdirSync(join(dir, 'once'));
  const live = join(dir, 'live', 'session.jsonl');
  const once = join(dir, 'once', 'session.jsonl');
  writeFileSync(live, '');
  const watcher = new SessionWatcher([live], { view });
  let pos = 0;
  let i = 0;
  while (pos < bytes.length) {
    const size = sizes.length === 0 ? bytes.length : Math.max(1, sizes[i++ % sizes.length] as number);
    appendFileSync(live, bytes.subarray(pos, pos + size));
    pos += size;
    const { session } = await watcher.update();
    const written = readFileSync(live);
    writeFileSync(once, written.subarray(0, written.lastIndexOf(10) + 1));
    const expected = (await parseSession([once], { view })).session;
    assert.deepEqual(comparable(session), comparable(expected), `after ${pos} of ${bytes.length} bytes`);
  }
}

const chunks = fc.array(fc.integer({ min: 1, max: 3000 }), { minLength: 1, maxLength: 12 });
const RUNS = Number(process.env['ROMP_LIVE_PROPERTY_RUNS'] ?? 50);

test('live: generated transcripts appended in random chunks equal the one-shot parse at every step', async () => {
  await fc.assert(
    fc.asyncProperty(transcriptArb, chunks, fc.constantFrom('full' as const, 'context' as const), async (records, sizes, view) => {
      await replay(mutate(records, []), sizes, view);
    }),
    { numRuns: RUNS },
  );
});

test('live: corpus transcripts appended in random chunks equal the one-shot parse at every step', async () => {
  const samples = corpusSamples().filter((b) => b.length < 60_000);
  if (samples.length === 0) return;
  await fc.assert(
    fc.asyncProperty(fc.nat({ max: samples.length - 1 }), fc.array(fc.integer({ min: 200, max: 20000 }), { minLength: 1, maxLength: 6 }), async (i, sizes) => {
      await replay(samples[i] as Buffer, sizes, 'full');
    }),
    { numRuns: Math.max(10, RUNS >> 1) },
  );
});
