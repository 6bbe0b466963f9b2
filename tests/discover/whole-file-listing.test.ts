import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { PromptCounter } from '../../src/discover/count-prompts.ts';
import { fileListing } from '../../src/discover/list-claude-sessions.ts';
import { lastTime, lastTimeIn, type LastTime } from '../../src/discover/last-time.ts';
import { edgesIn, readEdges, utf8Line } from '../../src/discover/read-edges.ts';
import { readWholeSync } from '../../src/discover/read-whole-sync.ts';
import { corpusTranscripts } from '../helpers/corpus.ts';
import { tempDir } from '../helpers/temp-dir.ts';

/** The prompts of a file pushed to a counter at once, not in parts. */
function promptsAtOnce(path: string): ReturnType<PromptCounter['done']> {
  const counter = new PromptCounter();
  counter.push(readFileSync(path));
  return counter.done();
}

/** One read of the file for all (`readWholeSync`) gives what the readers of its parts give. */
async function bothWays(path: string): Promise<LastTime | undefined> {
  const counter = new PromptCounter();
  const { info, head, tail } = readWholeSync(path, (part) => counter.push(part));
  // taken before anything else reads: the parts are views of buffers the next read overwrites
  const [edges, last, counted] = [
    edgesIn(head, tail, info.size),
    lastTimeIn(tail, info.size, info.mtimeMs),
    counter.done(),
  ];
  // the lines of `edgesIn` are byte strings: as text, the lines of `readEdges`
  const text = { head: edges.head.map(utf8Line), tail: edges.tail.map(utf8Line), size: edges.size };
  assert.deepEqual(text, await readEdges(path), `edges: ${path}`);
  assert.deepEqual(counted, promptsAtOnce(path), `prompts: ${path}`);
  if (last !== undefined) assert.deepEqual(last, await lastTime(path), `last time: ${path}`);
  assert.equal(readFileSync(path).length, info.size);
  return last;
}

test('one read of a file lists it as the readers of its parts do: hand-made edges', async () => {
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
  const last = new Map<string, LastTime | undefined>();
  for (const [name, text] of Object.entries(cases)) {
    const path = join(dir, `${name}.jsonl`);
    writeFileSync(path, text);
    last.set(name, await bothWays(path));
  }
  // the last 64 KiB hold no timestamped line: read again, backwards
  assert.equal(last.get('tail'), undefined);
  assert.deepEqual(await lastTime(join(dir, 'tail.jsonl')), {
    time: Date.UTC(2026, 2, 1, 10, 0, 2),
    from: 'timestamp',
  });
  assert.deepEqual(last.get('first'), { time: Date.UTC(2026, 2, 1, 10, 0, 3), from: 'timestamp' });
  assert.equal(last.get('none')?.from, 'mtime');
  assert.deepEqual(last.get('middle'), { time: Date.UTC(2026, 2, 1, 10, 0, 4), from: 'timestamp' });
});

test('one read of a file lists it as the readers of its parts do: the corpus', async () => {
  for (const path of corpusTranscripts()) await bothWays(path);
});

test('a UTF-16 copy of a transcript (PowerShell `>`) is listed as the UTF-8 file is: cwd, times, title, prompts', async () => {
  const dir = tempDir('romp-utf16-listing-');
  const lines = [
    {
      type: 'user',
      cwd: '/home/dev/kiwi',
      timestamp: '2026-03-01T10:00:00.000Z',
      message: { role: 'user', content: 'peel the kiwi' },
      uuid: 'k1',
      parentUuid: null,
      sessionId: 's',
    },
    {
      type: 'assistant',
      cwd: '/home/dev/kiwi',
      timestamp: '2026-03-01T10:00:05.000Z',
      message: { role: 'assistant', content: [{ type: 'text', text: 'Peeled: ü' }] },
      uuid: 'k2',
      parentUuid: 'k1',
      sessionId: 's',
    },
    {
      type: 'user',
      cwd: '/home/dev/kiwi',
      timestamp: '2026-03-01T10:01:00.000Z',
      message: { role: 'user', content: 'and the mango' },
      uuid: 'k3',
      parentUuid: 'k2',
      sessionId: 's',
      gitBranch: 'fruit',
    },
    { type: 'custom-title', customTitle: 'Fruit salad', sessionId: 's' },
  ];
  const text = lines.map((l) => JSON.stringify(l)).join('\r\n') + '\r\n';
  const utf8 = join(dir, 'utf8.jsonl');
  writeFileSync(utf8, text);
  const want = await fileListing(utf8);
  assert.deepEqual(
    [
      want.cwd,
      want.title,
      want.firstPrompt,
      want.prompts,
      want.lines,
      want.first,
      want.last,
      want.lastFrom,
      want.gitBranch,
    ],
    [
      '/home/dev/kiwi',
      'Fruit salad',
      'peel the kiwi',
      2,
      4,
      Date.parse('2026-03-01T10:00:00.000Z'),
      Date.parse('2026-03-01T10:01:00.000Z'),
      'timestamp',
      'fruit',
    ],
  );
  const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
  const be = Buffer.from(text, 'utf16le').swap16(); // no byte-order mark: told by the first `{` (00 7B)
  for (const [name, bytes] of [
    ['le.jsonl', le],
    ['be.jsonl', be],
  ] as const) {
    writeFileSync(join(dir, name), bytes);
    assert.deepEqual(await fileListing(join(dir, name)), { ...want, size: bytes.length }, name);
  }
  // over many 64 KiB parts, a 4-byte character (two UTF-16 units) in each line: the same as its UTF-8 file
  const filler = `{"type":"progress","data":"${'🥝'.repeat(300)}"}\r\n`.repeat(600);
  const big = text.replace('\r\n', `\r\n${filler}`);
  writeFileSync(utf8, big);
  const bigWant = await fileListing(utf8);
  assert.deepEqual([bigWant.lines, bigWant.prompts, bigWant.title], [604, 2, 'Fruit salad']);
  const bigLe = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(big, 'utf16le')]);
  assert.ok(bigLe.length > 8 * 64 * 1024);
  writeFileSync(join(dir, 'big.jsonl'), bigLe);
  assert.deepEqual(await fileListing(join(dir, 'big.jsonl')), { ...bigWant, size: bigLe.length });
});
