import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from './helpers/run-cli.ts';
import { tempDir } from './helpers/temp-dir.ts';
import { assistant, SID, text, user } from './helpers/transcript.ts';

/** One day, two responses of 10 in / 5 out / 100 cache read: one of sonnet-4-5 ($0.000135), one of a model
 * without a price, so that the cost reads `≥ $0.00 (1 unpriced)`. */
function projects(): string {
  const dir = tempDir('romp-usage-narrow-');
  const folder = join(dir, '-work-demo');
  mkdirSync(folder);
  const unpriced = assistant('a2', 'u2', text('two'), 3, { mid: 'm2', stop: 'end_turn' });
  const lines = [
    user('u1', null, 'one', 0),
    assistant('a1', 'u1', text('one'), 1, { mid: 'm1', stop: 'end_turn' }),
    user('u2', 'a1', 'two', 2),
    { ...unpriced, message: { ...(unpriced['message'] as object), model: 'claude-mystery-x' } },
  ];
  writeFileSync(join(folder, `${SID}.jsonl`), `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
  return dir;
}

const usage = async (columns: number): Promise<string[]> => {
  const r = await runCli(['usage', '--projects', projects(), '--timezone', 'UTC', '--no-index'], columns);
  assert.equal(r.code, 0, r.err);
  return r.out.split('\n').filter((l) => l.startsWith('│') || /^[┌├└]/.test(l));
};

test('romp usage on 60 columns puts "(1 unpriced)" under the cost and cuts the models to fit', async () => {
  const table = await usage(60);
  // Date 10 + Models cut to 10 + Input 5 + Output 6 + Cost 12 ("(1 unpriced)") + 16 of borders = 59
  assert.deepEqual(table.slice(3, 5), [
    '│ 2026-03-01 │ - mystery… │    20 │     10 │      ≥ $0.00 │',
    '│            │ - sonnet-… │       │        │ (1 unpriced) │',
  ]);
  assert.ok(table.every((l) => [...l].length <= 59));
});

test('romp usage on 50 columns stacks the models under the date: 12 + 5 + 6 + 12 + 13 of borders = 48', async () => {
  const table = await usage(50);
  assert.deepEqual(table.slice(0, 7), [
    '┌──────────────┬───────┬────────┬──────────────┐',
    '│ Date         │ Input │ Output │   Cost (USD) │',
    '│ Models       │       │        │              │',
    '├──────────────┼───────┼────────┼──────────────┤',
    '│ 2026-03-01   │    20 │     10 │      ≥ $0.00 │',
    '│ - mystery-x  │       │        │ (1 unpriced) │',
    '│ - sonnet-4-5 │       │        │              │',
  ]);
});

test('romp usage on 40 columns stacks the numbers under their names: no line over 39', async () => {
  const table = await usage(40);
  // names 6 wide ("Output"), numbers 7 ("≥ $0.00"; the cost's note "(1 unpriced)" under it fits the 14): the
  // column takes its header's 15, the lines right-aligned in it
  assert.deepEqual(table.slice(3, 8), [
    '├──────────────┼─────────────────┤',
    '│ 2026-03-01   │  Input       20 │',
    '│ - mystery-x  │  Output      10 │',
    '│ - sonnet-4-5 │  Cost   ≥ $0.00 │',
    '│              │    (1 unpriced) │',
  ]);
  assert.equal(table[1], '│ Date         │ Tokens and cost │');
  assert.ok(table.every((l) => [...l].length <= 39));
});

test('romp usage session --breakdown on 40 columns: a time (never cut) and the stacked numbers fit 39', async () => {
  const r = await runCli(
    ['usage', 'session', '--breakdown', '--projects', projects(), '--timezone', 'UTC', '--no-index'],
    40,
  );
  const table = r.out.split('\n').filter((l) => /^[│┌├└]/.test(l));
  assert.ok(
    table.some((l) => /^│ 2026-03-01 \d\d:\d\d +│/.test(l)),
    table.join('\n'),
  );
  assert.ok(table.some((l) => l.includes('└ sonnet-4')));
  assert.ok(
    table.every((l) => [...l].length <= 39),
    table.find((l) => [...l].length > 39),
  );
});
