import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import type { Entry } from '../src/graph/entry.ts';
import { buildIndex } from '../src/graph/build-index.ts';
import { EntrySet } from '../src/graph/entry-set.ts';
import { parseLine } from '../src/read/parse-line.ts';
import type { QueueOperation } from '../src/session/collect-files.ts';
import { queuedPrompts } from '../src/session/queued-prompts.ts';
import { findPostalId } from '../src/tree/find-postal-id.ts';
import { formatTurn } from '../src/cli/format-outline.ts';
import type { Atom, Turn } from '../src/model/types.ts';
import { priceFor } from '../src/usage/prices.ts';
import { LINEAR_GROWTH_LIMIT, timeGrowth } from './helpers/time-growth.ts';

// Every loop and regex over transcript text runs in linear time: 10× the input, about 10× the CPU time.

const grows = <T>(t: TestContext, name: string, input: (n: number) => T, run: (input: T) => void, n: number): void => {
  const inputs = new Map<number, T>(); // made once per size, outside the time measured
  const measure = (): number =>
    timeGrowth((size) => {
      if (!inputs.has(size)) inputs.set(size, input(size));
      run(inputs.get(size) as T);
    }, n);
  // a loaded machine only ever makes a ratio larger (cache and collector churn), never a quadratic one
  // smaller: the best of up to three measures is the code's own growth
  let ratio = measure();
  for (let attempt = 1; attempt < 3 && ratio >= LINEAR_GROWTH_LIMIT; attempt++) ratio = Math.min(ratio, measure());
  t.diagnostic(`${name}: 10× the input, ${ratio.toFixed(1)}× the time`);
  assert.ok(ratio < LINEAR_GROWTH_LIMIT, `${name}: 10× the input took ${ratio.toFixed(1)}× the time`);
};

test('a torn line full of record markers is recovered in linear time', (t) => {
  // every `{"parentUuid":` / `{"type":` of the line was a start to re-parse from
  const line = (n: number): string =>
    '{"parentUuid":"p","type":"user","message":{"content":"x'.concat('{"type":{"parentUuid":'.repeat(n));
  assert.deepEqual(
    parseLine(line(3), 'f', 1, 0).diagnostics.map((d) => d.code),
    ['INVALID_JSON'],
  );
  grows(t, 'recoverTail', line, (text) => parseLine(text, 'f', 1, 0), 500);
});

test('a torn record followed by a whole one still keeps the whole one', () => {
  const whole = '{"parentUuid":"a","type":"user","message":{"content":[{"type":"text","text":"}{\\"type\\":"}]}}';
  assert.deepEqual(parseLine(`{"type":"user","message":{"content":[${whole}`, 'f', 1, 0).records, [JSON.parse(whole)]);
  assert.deepEqual(parseLine(`{"type":"user","mess{"type":"x"} `, 'f', 1, 0).records, [{ type: 'x' }]);
  assert.deepEqual(parseLine(`{"type":"user","mess{"type":"x"} "y"`, 'f', 1, 0).records, []);
  assert.deepEqual(parseLine(`{"type":"user","mess{"other":"x"}`, 'f', 1, 0).records, []);
});

test('a prompt full of postal marker starts is read in linear time', (t) => {
  const text = (n: number): string => '<!--romp-msg-id:'.repeat(n);
  assert.equal(findPostalId(text(3)), undefined);
  assert.equal(findPostalId(`${text(3)}<!-- romp-msg-id: m-1 -->`), 'm-1');
  grows(t, 'POSTAL_MARKER', text, findPostalId, 500);
});

test('never-delivered enqueues are matched in linear time', (t) => {
  const session = (n: number): { queue: QueueOperation[]; entries: Entry[] } => {
    const queue: QueueOperation[] = [];
    const entries: Entry[] = [];
    for (let i = 0; i < n; i++)
      queue.push({
        operation: 'enqueue',
        t: i,
        content: `later ${i}`,
        reason: undefined,
        fsid: 'f',
        line: i + 1,
        seq: i,
        fileSeq: i,
      });
    for (let i = 0; i < n; i++) {
      const record = { type: 'user', uuid: `u${i}`, message: { role: 'user', content: `now ${i}` } };
      entries.push({
        uuid: `u${i}`,
        parent: i === 0 ? null : `u${i - 1}`,
        via: undefined,
        type: 'user',
        subtype: undefined,
        isSidechain: false,
        messageId: undefined,
        t: n + i,
        fsid: 'f',
        file: 'f',
        line: n + i + 1,
        byteOffset: 0,
        seq: n + i,
        fileSeq: n + i,
        pos: -1,
        record,
      });
    }
    return { queue, entries };
  };
  const indexed = (n: number) => {
    const { queue, entries } = session(n);
    const index = buildIndex(entries, () => {});
    const onPath = new EntrySet(entries.length);
    for (const e of index.ordered) onPath.add(e);
    return { queue, entries, index, onPath };
  };
  const run = ({ queue, entries, index, onPath }: ReturnType<typeof indexed>): ReturnType<typeof queuedPrompts> =>
    queuedPrompts(queue, entries, index, onPath, 'r');
  assert.deepEqual(run(indexed(3)).prompts, []);
  grows(t, 'queuedPrompts', indexed, run, 100);
});

test('the other regexes over transcript text (model id suffixes, the outline whitespace collapse) grow linearly', (t) => {
  // (a slash command is tested by an anchored regex on one prompt: linear by construction)
  const model = (n: number): string => '-12345678'.repeat(n).concat('[1m]x');
  assert.equal(priceFor(model(2)), undefined);
  grows(t, 'priceFor', model, (m) => priceFor(m), 2000);
  const turn = (n: number): Turn => {
    const atom: Atom = {
      type: 'user',
      uuid: 'u1',
      session_id: 's',
      t: 1,
      message: { role: 'user', content: [{ type: 'text', text: ` a${' \t\n'.repeat(n)}b` }] },
    };
    return { id: 't', trigger: { uuid: 'u1' } as Turn['trigger'], atoms: [atom], t: 1, end: 1, ended: true } as Turn;
  };
  assert.match(formatTurn(turn(3), 1).join('\n'), /a b/);
  grows(t, 'outline whitespace', turn, (x) => formatTurn(x, 1), 5000);
});
