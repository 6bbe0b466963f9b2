import assert from 'node:assert/strict';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { countPrompts, countPromptsIn } from '../../src/discover/count-prompts.ts';
import { lastTime, lastTimeIn } from '../../src/discover/last-time.ts';
import { edgesIn, readEdges } from '../../src/discover/read-edges.ts';
import { corpusTranscripts } from '../helpers/corpus.ts';
import { tempDir } from '../helpers/temp-dir.ts';

/** The readers by parts and the readers of a whole file's bytes give one listing. */
async function bothWays(path: string): Promise<void> {
  const bytes = readFileSync(path);
  assert.deepEqual(edgesIn(bytes), await readEdges(path), `edges: ${path}`);
  assert.deepEqual(countPromptsIn(bytes), await countPrompts(path), `prompts: ${path}`);
  assert.deepEqual(lastTimeIn(bytes, statSync(path).mtimeMs), await lastTime(path), `last time: ${path}`);
}

test('a whole file read at once lists as the readers by parts list it: hand-made edges', async () => {
  const dir = tempDir('romp-whole-listing-');
  const t = (s: number): string => `"timestamp":"2026-03-01T10:00:${String(s).padStart(2, '0')}.000Z"`;
  const cases = {
    // no newline at the end; the last timestamp two lines before the end, across 64 KiB steps of lastTime
    tail: `{"type":"user",${t(1)}}\n{"type":"user",${t(2)},"x":"${'é'.repeat(40_000)}"}\n{"type":"ai-title","aiTitle":"a"}\n{"type":"last-prompt"}`,
    // the only timestamp on the first line, no newline at all
    first: `{"type":"summary","summary":"s",${t(3)}}`,
    // no timestamp: the mtime
    none: '{"type":"summary","summary":"s"}\n\n',
    empty: '',
    // head and tail windows meeting inside a line
    middle: `${'{"a":1}\n'.repeat(1000)}{"type":"user",${t(4)}}\n${'{"b":2}\n'.repeat(1100)}`,
  };
  for (const [name, text] of Object.entries(cases)) {
    const path = join(dir, `${name}.jsonl`);
    writeFileSync(path, text);
    await bothWays(path);
  }
  const stamped = join(dir, 'tail.jsonl');
  assert.deepEqual(lastTimeIn(readFileSync(stamped), 0), { time: Date.UTC(2026, 2, 1, 10, 0, 2), from: 'timestamp' });
  assert.deepEqual(lastTimeIn(readFileSync(join(dir, 'none.jsonl')), 7), { time: 7, from: 'mtime' });
});

test('a whole file read at once lists as the readers by parts list it: the corpus', async () => {
  for (const path of corpusTranscripts()) await bothWays(path);
});
