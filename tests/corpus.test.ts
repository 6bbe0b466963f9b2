/**
 * Golden runs over the real transcripts in ../shared/corpus (read-only; nothing is copied here).
 * Skipped when the corpus is not beside the checkout.
 */
import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { relative } from 'node:path';
import { test } from 'node:test';
import { CORPUS_TRANSCRIPTS, corpusPresent, corpusTranscripts, isSynthetic } from './helpers/corpus.ts';
import { checkInvariants, checkLossless } from './helpers/invariants.ts';
import { assertOfficialReader } from './helpers/official-reader.ts';
import { readTranscript, type ReadRecord } from '../src/read/read-transcript.ts';
import { parseSession } from '../src/session/parse-session.ts';

const ROOT = CORPUS_TRANSCRIPTS;
const present = corpusPresent;
const files = corpusTranscripts();
const synthetic = isSynthetic;

test(
  'every corpus transcript parses in both views; every line is a record or a diagnostic; nothing is lost',
  { skip: !present },
  async () => {
    assert.ok(files.length >= 100, `corpus has ${files.length} files`);
    for (const file of files) {
      const where = relative(ROOT, file);
      const read = await readTranscript(file);
      for (const view of ['full', 'context'] as const) {
        const { session } = await parseSession([file], { view });
        checkInvariants(session, `${where} (${view})`);
        checkLossless(read, session, `${where} (${view})`);
      }
    }
  },
);

test(
  'skipping toolUseResult and progress payloads unparsed changes no Session of the corpus',
  { skip: !present },
  async () => {
    let skipped = 0;
    for (const file of files) {
      const where = relative(ROOT, file);
      const [on, off] = [await parseSession([file]), await parseSession([file], { skipUnread: false })];
      assert.equal(JSON.stringify(on), JSON.stringify(off), where);
      const holding = (records: ReadRecord[]): number => records.filter((r) => 'toolUseResult' in r.record).length;
      skipped +=
        holding((await readTranscript(file)).records) -
        holding((await readTranscript(file, { skipUnread: true })).records);
    }
    // `grep -c ',"toolUseResult":'` finds 2,118 lines; in 28 the key is only inside a nested value (not
    // skipped), and a synthetic file's spaced `, "toolUseResult": ` is not skipped either
    assert.equal(skipped, 2090);
  },
);

test('the glued lines of the corpus are split and reported', { skip: !present }, async () => {
  const glued: string[] = [];
  for (const file of files) {
    const read = await readTranscript(file);
    for (const d of read.diagnostics.filter((x) => x.code === 'GLUED_RECORDS')) {
      assert.equal(read.records.filter((r) => r.line === d.line).length, 2, `${d.file}:${d.line}`);
      glued.push(`${relative(ROOT, file)}:${d.line}`);
    }
  }
  // the lines holding `}{` between two records (transcript-format §17.1), found by grep
  assert.deepEqual(glued, [
    'entireio__cli/8c/fa910f8ef9/0/full.jsonl:115',
    'entireio__cli/8c/fa910f8ef9/0/full.jsonl:241',
    'entireio__cli/ee/cf21d297fe/0/full.jsonl:300',
  ]);
});

/** The context view against the Agent SDK's own reader on every real main transcript, with no exemption. */
test('context view = the official reader getSessionMessages, response by response', { skip: !present }, async () => {
  let compared = 0;
  let lines = 0;
  for (const file of files) {
    if (synthetic(file) || /agent-[^/]*\.jsonl$/.test(file) || statSync(file).size === 0) continue;
    lines += await assertOfficialReader(file, relative(ROOT, file));
    compared++;
  }
  assert.ok(compared >= 50 && lines >= compared, `compared ${compared} files, ${lines} lines`);
});
