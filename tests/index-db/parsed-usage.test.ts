import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Diagnostic } from '../../src/diagnostics/diagnostic.ts';
import { fileRows, watchFile } from '../../src/index-db/file-rows.ts';
import { stampFile } from '../../src/index-db/file-stamp.ts';
import { parsedRows, parsedUsage } from '../../src/index-db/stamped-reads.ts';
import { listingText } from '../../src/index-db/listings.ts';
import { usageText } from '../../src/index-db/usage-files.ts';
import { corpusPresent, corpusTranscripts } from '../helpers/corpus.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { assistant, text, user } from '../helpers/transcript.ts';

const usage = { input_tokens: 10, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 100 };

/** A session of 4 lines: a prompt, response m1 in two lines (start-of-message then final usage), response m2 with a
 * usage field that is no count (`BAD_USAGE`). */
const LINES = [
  user('u1', null, 'hello', 0),
  assistant('a1', 'u1', text('one'), 1, { mid: 'm1', usage: { ...usage, output_tokens: 1 } }),
  assistant('a2', 'a1', text('two'), 2, { mid: 'm1', stop: 'end_turn', usage: { ...usage, output_tokens: 7 } }),
  assistant('a3', 'a2', text('three'), 3, { mid: 'm2', stop: 'end_turn', usage: { ...usage, input_tokens: 'x' } }),
].map((l) => JSON.stringify(l));

/** Parses a file as a build does; then `parsedUsage` of it. */
async function derived(path: string): Promise<string | undefined> {
  const bad: Diagnostic[] = [];
  const entry = watchFile(path, (d) => bad.push(d));
  const size = (await stampFile(path))?.size as number;
  await fileRows(entry, { path, subagent: false });
  return parsedUsage(entry, bad, size);
}

test('the usage of a clean file comes from its parse, as the byte-level reader gives it', async () => {
  const path = join(tempDir('romp-parsed-usage-'), 's.jsonl');
  writeFileSync(path, `${LINES.join('\n')}\n`);
  const text = await derived(path);
  assert.equal(text, await usageText(path));
  const read = JSON.parse(text as string) as { groups: Array<[string, { usage: { output_tokens: number } }]> };
  // two responses, m1's final usage (7 output tokens); one BAD_USAGE at line 4; 4 lines read, the next is 5
  assert.deepEqual(
    read.groups.map(([, r]) => r.usage.output_tokens),
    [7, 5],
  );
  assert.deepEqual(
    (JSON.parse(text as string) as { diagnostics: Diagnostic[] }).diagnostics.map((d) => [d.code, d.line]),
    [['BAD_USAGE', 4]],
  );
  assert.equal((JSON.parse(text as string) as { next: number }).next, 5);
});

test('a last line without its newline, or a broken line, sends the usage to the byte-level reader', async () => {
  const dir = tempDir('romp-parsed-usage-');
  const open = join(dir, 'open.jsonl');
  writeFileSync(open, LINES.join('\n'));
  const broken = join(dir, 'broken.jsonl');
  writeFileSync(broken, `${LINES[0] as string}\n{"type":"assistant",\n${LINES.slice(1).join('\n')}\n`);
  for (const path of [open, broken]) {
    assert.equal(await derived(path), undefined, path);
    // the build still stores what the reader gives
    const rows = await parsedRows({ path, subagent: false }, true);
    assert.equal(rows.stamped?.usage?.text, await usageText(path), path);
    assert.equal(rows.stamped?.listing?.text, await listingText(path), path);
  }
  // the open last line is read by the byte-level reader: m2 is counted
  assert.equal((JSON.parse((await usageText(open)) as string) as { groups: unknown[] }).groups.length, 2);
});

test('an empty file, and files of blank lines, have the usage the byte-level reader gives', async () => {
  const dir = tempDir('romp-parsed-usage-');
  for (const [name, content] of [
    ['empty', ''],
    ['one', '\n'],
    ['two', '\n\n'],
  ] as const) {
    const path = join(dir, `${name}.jsonl`);
    writeFileSync(path, content);
    const rows = await parsedRows({ path, subagent: false }, false);
    assert.equal(rows.stamped?.usage?.text, await usageText(path), name);
  }
  // the next line after two blank lines is 3
  assert.equal((JSON.parse((await usageText(join(dir, 'two.jsonl'))) as string) as { next: number }).next, 3);
});

test(
  'over the corpus, the usage taken from the parse is the byte-level reader’s',
  { skip: !corpusPresent },
  async () => {
    let taken = 0;
    for (const path of corpusTranscripts()) {
      const text = await derived(path);
      if (text === undefined) continue;
      taken++;
      assert.equal(text, await usageText(path), path);
    }
    assert.ok(taken > 10, `${taken} files`);
  },
);
