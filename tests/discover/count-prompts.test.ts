import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { PromptCounter } from '../../src/discover/count-prompts.ts';
import { readWholeSync } from '../../src/discover/read-whole-sync.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { assistant, text, toolResult, user } from '../helpers/transcript.ts';

test('PromptCounter: the same count whatever chunk a line falls in, across and on chunk boundaries', async () => {
  // lines of every kind, many per 256 KiB chunk and some longer than one: prompts among tool results,
  // assistant text naming "type":"user", a sidechain line, a spaced-JSON prompt
  const lines: string[] = [];
  let prompts = 0;
  for (let i = 0; i < 400; i++) {
    const pad = 'x'.repeat((i * 7919) % 3000);
    const uuid = `u${i}`;
    if (i % 5 === 0) {
      lines.push(JSON.stringify(user(uuid, null, `prompt ${i} ${pad}`, i)));
      prompts++;
    } else if (i % 5 === 1) lines.push(JSON.stringify(user(uuid, null, [toolResult(`t${i}`, pad)], i)));
    else if (i % 5 === 2)
      lines.push(JSON.stringify(assistant(uuid, null, text(`say "type":"user" ${pad}`), i, { mid: `m${i}` })));
    else if (i % 5 === 3) lines.push(JSON.stringify(user(uuid, null, `side ${pad}`, i, { isSidechain: true })));
    else {
      lines.push(JSON.stringify(user(uuid, null, `spaced ${i}`, i), null, 1).replaceAll('\n', ' '));
      prompts++;
    }
    // a line of 300 KB: longer than a chunk, a prompt every other time
    if (i % 97 === 0) {
      lines.push(JSON.stringify(user(`big${i}`, null, `big ${'y'.repeat(300_000)}`, i)));
      prompts++;
    }
  }
  const path = join(tempDir('romp-count-prompts-'), 's.jsonl');
  writeFileSync(path, `${lines.join('\n')}\n`);
  const counter = new PromptCounter();
  readWholeSync(path, (part) => counter.push(part));
  const counted = counter.done();
  assert.equal(counted.lines, lines.length);
  assert.equal(counted.prompts, prompts);
  assert.equal(counted.firstPrompt, 'prompt 0');
});

test('PromptCounter: flags and types told from their bytes as JSON.parse would read them', () => {
  const lines = [
    user('p1', null, 'counted', 0),
    // harness lines: flagged at the top level (the bytes tell them before any parse: even one typed is no prompt)
    user('m1', null, 'caveat', 1, { isMeta: true }),
    user('m2', null, 'typed, yet meta', 1, { isMeta: true, promptSource: 'typed' }),
    user('c1', null, 'summary of before', 2, { isCompactSummary: true }),
    user('s1', null, 'a subagent prompt', 3, { isSidechain: true }),
    // the flags' bytes inside a text are escaped: a prompt
    user('p2', null, 'it said "isMeta":true and "isSidechain":true', 4),
    // a flag set false, another type ending in user, a user type inside a message only
    user('p3', null, 'also counted', 5, { isMeta: false }),
    { ...user('x1', null, 'not a user line', 6), type: 'superuser' },
    { type: 'assistant', uuid: 'a1', message: { role: 'user', content: [{ type: 'text', text: '"type":"user"' }] } },
    // a tool result is no prompt
    user('r1', null, [toolResult('t1', 'output')], 7),
  ];
  const counter = new PromptCounter();
  counter.push(Buffer.from(`${lines.map((l) => JSON.stringify(l)).join('\n')}\n`));
  const counted = counter.done();
  assert.deepEqual([counted.lines, counted.prompts, counted.firstPrompt], [lines.length, 3, 'counted']);
});
