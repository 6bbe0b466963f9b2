import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Session } from '../../src/model/types.ts';
import { parseSession } from '../../src/session/parse-session.ts';
import { runCli } from '../helpers/run-cli.ts';
import { assistant, text, toolResult, toolUse, user, writeJsonl } from '../helpers/transcript.ts';

// Claude Code 1.0.x: a subagent's lines in the parent's own file, `isSidechain: true`, the first with
// `parentUuid: null` and the prompt the Task call sent; one more sidechain whose prompt no call sent
const old = { version: '1.0.108' };
const side = { ...old, isSidechain: true };
const lines = [
  user('u1', null, 'count the widgets', 0, old),
  assistant('a1', 'u1', toolUse('toolu_A', 'Task', { description: 'first job', prompt: 'look for widgets' }), 1, {
    mid: 'm1',
    extra: old,
  }),
  assistant('a2', 'a1', toolUse('toolu_B', 'Task', { description: 'second job', prompt: 'never started' }), 2, {
    mid: 'm1',
    extra: old,
  }),
  user('s1', null, 'look for widgets', 3, side),
  assistant('s2', 's1', text('zebra-sidechain-text'), 4, { mid: 'ms1', extra: side }),
  assistant('s3', 's2', toolUse('toolu_S', 'Bash', { command: 'ls widgets' }), 5, { mid: 'ms1', extra: side }),
  user('s4', 's3', [toolResult('toolu_S', 'w1 w2')], 6, side),
  assistant('s5', 's4', text('two widgets'), 7, { mid: 'ms2', extra: side }),
  user('r1', 'a2', [toolResult('toolu_A', 'two widgets')], 8, old),
  user('r2', 'r1', [toolResult('toolu_B', 'no sidechain for this one')], 9, old),
  user('o1', null, 'a prompt no call sent', 10, side),
  assistant('o2', 'o1', text('pelican-orphan-text'), 11, { mid: 'mo1', extra: side }),
  assistant('a3', 'r2', text('main reply done'), 12, { mid: 'm2', stop: 'end_turn', extra: old }),
];

test('inline sidechains: tied to their Task call by its prompt, the main conversation unchanged', async () => {
  const file = path();
  const { session, diagnostics } = await parseSession([file]);
  assert.deepEqual(diagnostics, []);
  assert.deepEqual(
    session.turns.map((t) => t.atoms.map((a) => a.uuid)),
    [['u1', 'a1', 'a2', 'r1', 'r2', 'a3']],
  );
  assert.deepEqual(
    session.sidechains?.map((s) => [s.tool_use_id, s.atoms.map((a) => a.uuid)]),
    [
      ['toolu_A', ['s1', 's2', 's3', 's4', 's5']],
      [null, ['o1', 'o2']],
    ],
  );
  // the index and the lake read stream subagents from `subagents`: a file's sidechains are not there
  assert.equal(session.subagents, undefined);
  // still kept as records too: every line read is one
  assert.equal(session.records.filter((r) => r.isSidechain === true).length, 7);
});

test('inline sidechains: romp show --json holds them, romp show counts their turns and atoms', async () => {
  const file = path();
  const json = JSON.parse((await runCli(['show', '--json', file])).out) as Session;
  assert.deepEqual(json.sidechains?.[0]?.atoms[1]?.message?.content, [{ type: 'text', text: 'zebra-sidechain-text' }]);
  assert.equal(json.sidechains?.[1]?.tool_use_id, null);
  const outline = (await runCli(['show', file])).out.split('\n');
  assert.ok(outline.includes('inline subagent of toolu_A: 1 turn, 5 atoms'), outline.join('\n'));
  assert.ok(outline.includes('inline sidechain not tied to a Task call, from o1: 1 turn, 2 atoms'));
});

test('inline sidechains: romp cat shows one under its call, indented, the other labelled at the end', async () => {
  const out = (await runCli(['cat', path()], 100)).out.split('\n');
  const first = out.findIndex((l) => l.includes('Task: first job'));
  const second = out.findIndex((l) => l.includes('Task: second job'));
  const zebra = out.findIndex((l) => l.includes('zebra-sidechain-text'));
  assert.ok(first > 0 && first < zebra && zebra < second, out.join('\n'));
  assert.equal(out[first + 2], '    ↳ subagent: 1 turn, 5 atoms, $0.00');
  assert.match(out[zebra] ?? '', /^ {4}● zebra-sidechain-text$/);
  assert.ok(out.some((l) => /^ {6}⏺ Bash: ls widgets$/.test(l)));
  const label = out.findIndex((l) => l === '    ↳ inline sidechain not tied to a Task call: 1 turn, 2 atoms, $0.00');
  const pelican = out.findIndex((l) => l.includes('pelican-orphan-text'));
  assert.ok(out.findIndex((l) => l.includes('main reply done')) < label && label < pelican);
  // sidechain lines are not rewound branches
  assert.ok(!out.some((l) => l.includes('rewound')));
});

test('inline sidechains: romp html puts one in its Task call, the other in a labelled section', async () => {
  const page = (await runCli(['html', path()])).out;
  const call = page.indexOf('Task: first job');
  const zebra = page.indexOf('zebra-sidechain-text');
  assert.ok(call > 0 && call < zebra && zebra < page.indexOf('Task: second job'));
  assert.ok(
    page.slice(call, zebra).includes('<div class="subagent"><p class="sub-head">subagent · claude-sonnet-4-5 · 1 turn'),
  );
  const section = page.indexOf('<section id="unlinked-sidechains"><h2>Inline sidechains not tied to a Task call</h2>');
  assert.ok(section > page.indexOf('main reply done') && section < page.indexOf('pelican-orphan-text'));
});

function path(): string {
  return writeJsonl(lines);
}
