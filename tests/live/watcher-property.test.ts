/**
 * A transcript appended to a file in random chunks (cutting lines anywhere, UTF-16 code units too), with
 * `update()` after each: every state equals the one-shot parse of the same bytes' complete lines, and so
 * does the end. Over generated transcripts (queued prompts among them), every corpus file, UTF-16 copies,
 * and a session of more files than `maxFiles`.
 */
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import type { Diagnostic } from '../../src/diagnostics/diagnostic.ts';
import { SessionWatcher } from '../../src/live/session-watcher.ts';
import type { Session } from '../../src/model/types.ts';
import { parseSession } from '../../src/session/parse-session.ts';
import { corpusTranscripts } from '../helpers/corpus.ts';
import { buildTranscript, mutate, transcriptArb } from '../helpers/properties.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { assistant, progress, system, text, toolResult, toolUse, user } from '../helpers/transcript.ts';

const comparable = (s: Session): unknown => JSON.parse(JSON.stringify({ ...s, files: s.files.map((f) => f.fsid) }));

type Encoding = 'utf8' | 'utf16le' | 'utf16le-bom';

function encode(bytes: Buffer, encoding: Encoding): Buffer {
  if (encoding === 'utf8') return bytes;
  const wide = Buffer.from(bytes.toString('utf8'), 'utf16le');
  return encoding === 'utf16le' ? wide : Buffer.concat([Buffer.from([0xff, 0xfe]), wide]);
}

/** The bytes of the complete lines: through the last `\n` (in UTF-16LE, its two bytes, at an even place). */
function completeLines(bytes: Buffer, encoding: Encoding): Buffer {
  if (encoding === 'utf8') return bytes.subarray(0, bytes.lastIndexOf(10) + 1);
  for (let i = (bytes.length - 2) & ~1; i >= 0; i -= 2)
    if (bytes[i] === 10 && bytes[i + 1] === 0) return bytes.subarray(0, i + 2);
  return bytes.subarray(0, 0);
}

/**
 * Appends `bytes` in chunks of `sizes` (cycled), updating after each; checks each state against the
 * one-shot parse of the complete lines, and returns every diagnostic the watcher gave with the parse's
 * of the whole file, and the watcher's count of full resolves.
 */
async function replay(
  bytes: Buffer,
  sizes: number[],
  view: 'full' | 'context',
  encoding: Encoding = 'utf8',
): Promise<{ live: Diagnostic[]; once: Diagnostic[]; full: number; session: Session }> {
  const dir = tempDir('romp-live-');
  mkdirSync(join(dir, 'live'));
  mkdirSync(join(dir, 'once'));
  const live = join(dir, 'live', 'session.jsonl');
  const once = join(dir, 'once', 'session.jsonl');
  writeFileSync(live, '');
  const watcher = new SessionWatcher([live], { view });
  const seen: Diagnostic[] = [];
  let pos = 0;
  let i = 0;
  let last: Diagnostic[] = [];
  let state: Session | undefined;
  while (pos < bytes.length) {
    const size = sizes.length === 0 ? bytes.length : Math.max(1, sizes[i++ % sizes.length] as number);
    appendFileSync(live, bytes.subarray(pos, pos + size));
    pos += size;
    const { session, diagnostics } = await watcher.update();
    state = session;
    seen.push(...diagnostics);
    writeFileSync(once, completeLines(readFileSync(live), encoding));
    const expected = await parseSession([once], { view });
    last = expected.diagnostics;
    assert.deepEqual(comparable(session), comparable(expected.session), `after ${pos} of ${bytes.length} bytes`);
  }
  return { live: seen, once: last, full: watcher.fullResolves, session: state as Session };
}

const chunks = fc.array(fc.integer({ min: 1, max: 3000 }), { minLength: 1, maxLength: 12 });
const RUNS = Number(process.env['ROMP_LIVE_PROPERTY_RUNS'] ?? 50);
/** Diagnostics of the read stage: reported once, as the bytes are read, live or not. */
const READ_CODES = new Set([
  'UTF16_FILE',
  'INVALID_UTF8',
  'NUL_BYTES',
  'INVALID_JSON',
  'LINE_TOO_LONG',
  'BAD_TIMESTAMP',
  'MISSING_UUID',
  'GLUED_RECORDS',
  'BLANK_LINE',
  'TOO_DEEP',
]);
const readCodes = (ds: Diagnostic[]): string[] =>
  ds
    .filter((d) => READ_CODES.has(d.code))
    .map((d) => `${d.code}@${d.line ?? ''}`)
    .sort();

test('live: generated transcripts appended in random chunks equal the one-shot parse at every step', async () => {
  await fc.assert(
    fc.asyncProperty(
      transcriptArb,
      chunks,
      fc.constantFrom('full' as const, 'context' as const),
      async (records, sizes, view) => {
        await replay(mutate(records, []), sizes, view);
      },
    ),
    { numRuns: RUNS },
  );
});

test('live: transcripts with queued prompts (generated atoms) appended in random chunks equal the one-shot parse', async () => {
  const ops = fc.array(
    fc.tuple(fc.constantFrom('absorbed' as const, 'turn' as const, 'parallel' as const, 'meta' as const), fc.nat()),
    { minLength: 1, maxLength: 12 },
  );
  await fc.assert(
    fc.asyncProperty(ops, chunks, async (list, sizes) => {
      await replay(mutate(buildTranscript(list), []), sizes, 'full');
    }),
    { numRuns: Math.max(10, RUNS >> 1) },
  );
});

test("live: UTF-16 transcripts, cut anywhere (within a code unit too), give the parse's session and its read diagnostics once", async () => {
  await fc.assert(
    fc.asyncProperty(
      transcriptArb,
      chunks,
      fc.constantFrom('utf16le' as const, 'utf16le-bom' as const),
      async (records, sizes, encoding) => {
        const { live, once } = await replay(encode(mutate(records, []), encoding), sizes, 'full', encoding);
        assert.deepEqual(readCodes(live), readCodes(once));
        assert.equal(live.filter((d) => d.code === 'UTF16_FILE').length, 1);
      },
    ),
    { numRuns: Math.max(10, RUNS >> 1) },
  );
});

test('live: a UTF-16 file watched at once gives the same session and diagnostics as parsed', async () => {
  const bytes = encode(
    mutate(
      buildTranscript([
        ['turn', 0],
        ['parallel', 1],
        ['meta', 3],
        ['absorbed', 0],
      ]),
      [],
    ),
    'utf16le-bom',
  );
  const path = join(tempDir('romp-live-'), 'wide.jsonl');
  writeFileSync(path, bytes);
  const watched = await new SessionWatcher([path]).update();
  const parsed = await parseSession([path]);
  assert.deepEqual(comparable(watched.session), comparable(parsed.session));
  assert.deepEqual(watched.diagnostics, parsed.diagnostics);
  assert.deepEqual(
    parsed.diagnostics.map((d) => d.code),
    ['UTF16_FILE'],
  );
});

test('live: every corpus file, appended in random chunks, equals the one-shot parse at every step', async () => {
  const files = corpusTranscripts();
  let run = 0;
  for (const file of files) {
    const bytes = readFileSync(file);
    // two to four chunks per file, cut anywhere, drawn again for each file
    const cuts = fc.sample(
      fc.array(fc.integer({ min: 1, max: Math.max(1, bytes.length - 1) }), { minLength: 1, maxLength: 3 }),
      { numRuns: 1, seed: run++ },
    )[0] as number[];
    const ends = [...new Set([...cuts, bytes.length])].sort((a, b) => a - b);
    const sizes = ends.map((end, i) => end - (ends[i - 1] ?? 0));
    const { live, once } = await replay(bytes, sizes, 'full');
    assert.deepEqual(readCodes(live), readCodes(once), file);
  }
});

test('live: maxFiles is honoured as files come: the file past the cap is TOO_MANY_FILES once and never read', async () => {
  const dir = tempDir('romp-live-');
  const [a, b] = [join(dir, 'a.jsonl'), join(dir, 'b.jsonl')];
  writeFileSync(a, mutate(buildTranscript([['turn', 0]]), []));
  writeFileSync(
    b,
    mutate(
      buildTranscript([
        ['turn', 0],
        ['turn', 1],
      ]),
      [],
    ),
  );
  const watcher = new SessionWatcher([a, b], { maxFiles: 1 });
  const first = await watcher.update();
  const parsed = await parseSession([a, b], { maxFiles: 1 });
  assert.deepEqual(comparable(first.session), comparable(parsed.session));
  assert.deepEqual(
    first.diagnostics.map((d) => [d.code, d.file]),
    [['TOO_MANY_FILES', b]],
  );
  appendFileSync(b, mutate(buildTranscript([['turn', 2]]), []));
  const second = await watcher.update();
  assert.deepEqual([second.diagnostics, second.changed, watcher.files], [[], [], [a]]);
});

test('live: appended a line at a time, queued prompts, parallel results, hook rows and metadata stay on the open-turn path', async () => {
  const ops: Array<[Parameters<typeof buildTranscript>[0][number][0], number]> = [
    ['turn', 0],
    ['absorbed', 0],
    ['parallel', 1],
    ['absorbed', 1],
    ['meta', 0],
    ['meta', 2],
    ['meta', 3],
    ['parallel', 0],
    ['turn', 1],
  ];
  const lines = mutate(buildTranscript(ops), [])
    .toString('utf8')
    .split(/(?<=\n)/);
  const sizes = lines.map((l) => Buffer.byteLength(l));
  const { full } = await replay(Buffer.from(lines.join('')), sizes, 'full');
  // the first update and the first line (no leaf yet); the first queue operation (the queue replay starts
  // from a full resolve); the prompt hanging beside the turn_duration row, which leaves the path. A call
  // hanging on a result of its own response, which moves the calls put back after it, and the results
  // after it, re-resolve the open response only
  assert.equal(full, 3);
});

test('live: streaming tool execution, results out of order, a call on an earlier result: only the open response moves', async () => {
  const m1 = { mid: 'm1', stop: 'tool_use' };
  const lines = [
    user('u1', null, 'look around', 0),
    assistant('a1', 'u1', toolUse('t1', 'Read'), 1, m1),
    assistant('a2', 'a1', toolUse('t2', 'Grep'), 1.1, m1),
    assistant('a3', 'a2', toolUse('t3', 'Glob'), 1.2, m1),
    user('r3', 'a3', [toolResult('t3', 'three')], 2), // the last call answers first
    progress('p1', 'a1', 2.5), // a PostToolUse hook of the first call: its result hangs on the row
    user('r1', 'p1', [toolResult('t1', 'one')], 3),
    assistant('a4', 'r1', toolUse('t4', 'Read'), 4, m1), // a call hanging on an earlier call's result
    user('r2', 'a2', [toolResult('t2', 'two')], 5),
    user('r4', 'a4', [toolResult('t4', 'four')], 6),
    assistant('a5', 'r4', text('done'), 7, { mid: 'm2', stop: 'end_turn' }),
  ].map((l) => `${JSON.stringify(l)}\n`);
  const { full, session } = await replay(
    Buffer.from(lines.join('')),
    lines.map((l) => Buffer.byteLength(l)),
    'full',
  );
  // only the first line resolves fully; a4 (m1 had a2, a3, r3 put back), r2 (put-back lines after the
  // leaf) and r4 (hangs on a4, off the walk) re-resolve m1's lines only
  assert.equal(full, 1);
  // the walk from r4 (r4, a4, r1 over p1, a1), m1's other lines put back after a4 in file order
  assert.deepEqual(
    session.turns.map((t) => t.atoms.map((a) => a.uuid)),
    [['u1', 'a1', 'r1', 'a4', 'a2', 'a3', 'r3', 'r2', 'r4', 'a5']],
  );
  assert.equal(session.records.find((r) => r.uuid === 'p1')?.onPath, true);
  // and cut anywhere, several lines to an append: every state still equals the one-shot parse
  for (const sizes of fc.sample(chunks, { numRuns: 20, seed: 14 }))
    await replay(Buffer.from(lines.join('')), sizes, 'full');
});

test("live: a Stop hook's rows naming a block never written stay on the open-turn path, with the walk's diagnostic", async () => {
  for (const [gap, code] of [
    [2, 'PHANTOM_PARENT'],
    [9, 'HISTORY_GAP'],
  ] as const) {
    const lines = [
      user('u1', null, 'go', 0),
      assistant('a1', 'u1', text('done'), 1, { mid: 'm1', stop: 'end_turn' }),
      progress('p1', 'never-written', 1 + gap),
      progress('p2', 'p1', 1 + gap),
      system('s1', 'p2', 'stop_hook_summary', 1 + gap),
      user('u2', 's1', 'next', 30),
    ].map((l) => `${JSON.stringify(l)}\n`);
    const sizes = lines.map((l) => Buffer.byteLength(l));
    const bytes = Buffer.from(lines.join(''));
    // full view: within 5 s the walk bridges s1 to a1 by time, else goes on at a1, the line before it
    const { full, live, once } = await replay(bytes, sizes, 'full');
    assert.equal(full, 1, code);
    assert.deepEqual(
      live.map((d) => [d.code, d.uuid]),
      [[code, 's1']],
    );
    const said = (ds: Diagnostic[]): unknown[] => ds.map((d) => [d.code, d.message, d.line, d.byteOffset]);
    assert.deepEqual(said(live), said(once)); // the same words as the one-shot walk's
    // context view: past 5 s the resumed conversation starts at s1, a real change of path
    assert.equal((await replay(bytes, sizes, 'context')).full, gap > 5 ? 2 : 1, code);
  }
});
