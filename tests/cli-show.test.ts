import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { cli } from '../src/cli/cli.ts';
import {
  assistant,
  compactBoundary,
  system,
  text,
  thinking,
  toolResult,
  toolUse,
  user,
  writeJsonl,
} from './helpers/transcript.ts';
import { keepingColumns } from './helpers/keeping-columns.ts';
import { tempDir } from './helpers/temp-dir.ts';

interface Run {
  code: number;
  out: string;
  err: string;
}

async function run(argv: string[], tty = false, stdin?: string): Promise<Run> {
  let out = '';
  let err = '';
  const stdout = { write: (s: string) => (out += s), ...(tty ? { isTTY: true, columns: 60 } : {}) };
  const code = await cli(argv, {
    stdout,
    stderr: { write: (s: string) => (err += s) },
    ...(stdin === undefined ? {} : { stdin: [Buffer.from(stdin)] }),
  });
  return { code, out, err };
}

/** A turn with thinking, a Bash call answered, a Read that failed, an Edit the user refused, then a compaction and a
 * second turn. */
const LINES = [
  user('u1', null, 'Fix the flaky test in <b>src</b>', 0),
  assistant('a1', 'u1', thinking('the test races the clock'), 1, { mid: 'm1', stop: 'tool_use' }),
  assistant('a2', 'a1', toolUse('t1', 'Bash', { command: 'npm test -- --grep flaky' }), 2, {
    mid: 'm1',
    stop: 'tool_use',
  }),
  user('r1', 'a2', [toolResult('t1', 'not ok 3 - flaky\n# fail 1\n# pass 2')], 5),
  assistant('a3', 'r1', toolUse('t2', 'Read', { file_path: 'src/missing.ts' }), 6, { mid: 'm2', stop: 'tool_use' }),
  user('r2', 'a3', [toolResult('t2', 'File does not exist.', true)], 7),
  assistant('a4', 'r2', toolUse('t3', 'Edit', { file_path: 'src/clock.ts', old_string: 'a', new_string: 'b\nc' }), 8, {
    mid: 'm3',
    stop: 'tool_use',
  }),
  user(
    'r3',
    'a4',
    [toolResult('t3', "The user doesn't want to proceed with this tool use. The tool use was rejected.", true)],
    9,
  ),
  user('i1', 'r3', [text('[Request interrupted by user for tool use]')], 9),
  compactBoundary('c1', 'i1', 20),
  user('u2', 'c1', 'Now explain the race in one line please, with enough words to wrap at sixty columns', 30),
  assistant('a5', 'u2', text('The test reads the clock twice, and a tick between the two reads makes it fail.'), 31, {
    mid: 'm4',
    stop: 'end_turn',
  }),
  system('s1', 'a5', 'turn_duration', 32, { durationMs: 2000 }),
];

test('romp show --full: prompts, thinking, each tool call with its result, error and refusal, compaction, wrapped text', async () => {
  const { code, out } = await run(['show', '--full', writeJsonl(LINES), '--timezone', 'UTC']);
  assert.equal(code, 0);
  const lines = out.split('\n');
  assert.deepEqual(lines.slice(2, 14), [
    '',
    // the compaction folds into the turn before (a system atom never opens one): 20 s
    '#1  2026-03-01 10:00  human  rejected  20 s  330 in / 15 out  $0.00',
    '❯ Fix the flaky test in <b>src</b>',
    '  ✻ thinking · 24 chars',
    '  ⏺ Bash: npm test -- --grep flaky',
    '    ⎿ not ok 3 - flaky  (+2 lines)',
    '  ⏺ Read: src/missing.ts',
    '    ⎿ error: File does not exist.',
    '  ⏺ Edit: src/clock.ts +2 −1',
    '    ⎿ rejected by the user',
    '  ⚙ [Request interrupted by user for tool use]',
    '  ── compacted (auto, 150,000 tokens before) ──',
  ]);
  assert.ok(lines.includes('● The test reads the clock twice, and a tick between the two reads makes it fail.'), out);
});

test('romp cat on a terminal: colours unless --no-color or NO_COLOR, wrapped to its width; never without --no-pager in a test', async () => {
  const file = writeJsonl(LINES);
  const coloured = await run(['cat', file, '--no-pager', '--timezone', 'UTC'], true);
  assert.match(coloured.out, /\u001b\[32mcompleted\u001b\[0m/);
  assert.match(coloured.out, /\u001b\[33mrejected\u001b\[0m/);
  // 60 columns, the last left free (as every printer leaves it): the reply wraps at 59, after "between the"
  assert.match(coloured.out, /^● The test reads the clock twice, and a tick between the$/m);
  assert.ok(
    coloured.out.split('\n').every((l) => l.replace(/\u001b\[[0-9;]*m/g, '').length <= 59),
    coloured.out,
  );
  const plain = await run(['cat', file, '--no-pager', '--no-color', '--timezone', 'UTC'], true);
  assert.doesNotMatch(plain.out, /\u001b/);
  process.env['NO_COLOR'] = '1';
  try {
    assert.doesNotMatch((await run(['cat', file, '--no-pager', '--timezone', 'UTC'], true)).out, /\u001b/);
  } finally {
    delete process.env['NO_COLOR'];
  }
});

test('a file with no transcript line is refused; diagnostics go to stderr, 20 and a count; romp doctor lists all', async () => {
  const junk = writeJsonl([
    'root:x:0:0:root:/root:/bin/bash',
    'daemon:x:1:1::/usr/sbin:/usr/sbin/nologin',
    'bin:x:2:2::/bin:/usr/sbin/nologin',
  ]);
  const refused = await run(['show', junk]);
  assert.equal(refused.code, 2);
  assert.equal(
    refused.err,
    `romp: ${junk}: not a Claude Code transcript (0 of 3 lines readable; romp doctor ${junk} says why)\n`,
  );
  // export and html print no empty session for it either (they printed a "# Session" page and exit 0)
  for (const argv of [
    ['export', junk],
    ['export', junk, '--format', 'json'],
    ['html', junk],
  ]) {
    const r = await run(argv);
    assert.deepEqual([r.code, r.out, r.err], [2, '', refused.err], argv.join(' '));
  }
  const broken = writeJsonl([...LINES, ...Array.from({ length: 25 }, (_, i) => `{broken ${i}`)]);
  const shown = await run(['show', broken]);
  assert.equal(shown.code, 0);
  assert.doesNotMatch(shown.out, /INVALID_JSON/);
  const err = shown.err.trimEnd().split('\n');
  assert.equal(err.length, 21);
  assert.equal(err[20], `… and 5 more; romp doctor ${broken} lists them all`);
  // and it does: the 25 broken lines, each named
  const doctor = await run(['doctor', broken]);
  assert.equal(doctor.code, 1);
  const named = doctor.out.split('\n').filter((l) => l.includes(': error INVALID_JSON'));
  assert.equal(named.length, 25);
  assert.match(named[24] ?? '', new RegExp(`:${LINES.length + 25}: error INVALID_JSON`));
});

test('romp show finds a session by id prefix or --latest; - reads standard input; romp tools names turn, input and error', async () => {
  const projects = tempDir('romp-show-projects-');
  mkdirSync(join(projects, '-work-demo'));
  writeFileSync(
    join(projects, '-work-demo', '5e55a000-0000-4000-8000-000000000001.jsonl'),
    `${LINES.map((l) => JSON.stringify(l)).join('\n')}\n`,
  );
  const byId = await run(['turns', '5e55a', '--projects', projects, '--json']);
  assert.deepEqual(
    (JSON.parse(byId.out) as Array<{ outcome: string }>).map((t) => t.outcome),
    ['rejected', 'completed'],
  );
  const latest = await run(['show', '--latest', '--projects', projects, '--timezone', 'UTC']);
  assert.match(latest.out, /^#2 {2}2026-03-01 10:00 {2}human {2}completed/m);
  const piped = await run(
    ['tools', '-', '--timezone', 'UTC'],
    false,
    `${LINES.map((l) => JSON.stringify(l)).join('\n')}\n`,
  );
  assert.deepEqual(piped.out.trimEnd().split('\n'), [
    '#1  Bash: npm test -- --grep flaky  3,000 ms  t1',
    '#1  Read: src/missing.ts  1,000 ms  t2  error: File does not exist.',
    "#1  Edit: src/clock.ts +2 −1  1,000 ms  t3  error: The user doesn't want to proceed with this tool use. The tool use was rejected.",
  ]);
});

test('romp show quotes a prompt as every printer escapes it: \\x1b, not JSON\'s \\u001b; " and \\ escaped', async () => {
  const file = writeJsonl([
    user('u1', null, 'say "hi" \u001b]0;owned\u0007 in C:\\tmp\u202e', 0),
    assistant('a1', 'u1', text('hi'), 1, { mid: 'm1', stop: 'end_turn' }),
  ]);
  const { code, out } = await run(['show', file, '--timezone', 'UTC']);
  assert.match(out, /^#1 /m);
  assert.equal(code, 0);
  assert.equal(out.split('\n')[5], '    "say \\"hi\\" \\x1b]0;owned\\x07 in C:\\\\tmp\\u202e"');
});

test('romp show / cat / json --turn N: only that turn, numbered as in the whole session; past the end, exit 2', async () => {
  const file = writeJsonl(LINES);
  const outline = await run(['show', file, '--turn', '2', '--timezone', 'UTC']);
  assert.equal(outline.code, 0);
  assert.match(outline.out, /^#2 /m);
  assert.doesNotMatch(outline.out, /^#1 /m);
  assert.match(outline.out, /Now explain the race/);
  assert.doesNotMatch(outline.out, /flaky test/);
  const full = await run(['cat', file, '--turn', '1', '--timezone', 'UTC']);
  assert.match(full.out, /Fix the flaky test/);
  assert.doesNotMatch(full.out, /explain the race/);
  const json = await run(['json', file, '--turn', '2']);
  assert.equal((JSON.parse(json.out) as { atoms: Array<{ uuid: string }> }).atoms[0]?.uuid, 'u2');
  const past = await run(['show', file, '--turn', '3']);
  assert.deepEqual([past.code, past.err.trim()], [2, 'romp: --turn 3: the session has 2 turns']);
});

test('romp cat fits terminals under 40 columns too, the last column left free', async () => {
  const file = writeJsonl(LINES);
  await keepingColumns(async () => {
    for (const columns of [24, 30, 40]) {
      process.env['COLUMNS'] = String(columns);
      const { code, out } = await run(['cat', file, '--no-pager', '--timezone', 'UTC']);
      assert.equal(code, 0);
      for (const line of out.trimEnd().split('\n')) assert.ok(line.length < columns, `${columns}: ${line}`);
    }
    // on 30 columns: the tool call cut to 29, the reply wrapped to 27 after its mark
    process.env['COLUMNS'] = '30';
    const { out } = await run(['cat', file, '--no-pager', '--timezone', 'UTC']);
    assert.ok(out.includes('\n  ⏺ Bash: npm test -- --grep…\n'), out);
    assert.ok(out.includes('\n● The test reads the clock\n  twice, and a tick between\n'), out);
  });
});
