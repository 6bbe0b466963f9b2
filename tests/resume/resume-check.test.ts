import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { test } from 'node:test';
import { parseSession } from '../../src/session/parse-session.ts';
import type { ResumeReport } from '../../src/resume/find-lost-turns.ts';
import { runCli } from '../helpers/run-cli.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import {
  assistant,
  compactBoundary,
  progress,
  text,
  toolResult,
  toolUse,
  user,
  writeJsonl,
} from '../helpers/transcript.ts';

const end = (uuid: string, parent: string, sec: number, mid: string): Record<string, unknown> =>
  assistant(uuid, parent, text('done'), sec, { mid, stop: 'end_turn' });

/** `romp resume-check --json` in UTC: a lost turn's `t` as an ISO string, `+00:00`. */
async function check(args: string[]): Promise<ResumeReport> {
  const { code, out, err } = await runCli(['resume-check', '--json', '--timezone', 'UTC', ...args]);
  assert.equal(code, 0, err);
  return JSON.parse(out) as ResumeReport;
}

/** The full view's turn ids absent from the context view, computed by parsing both views. */
async function absent(files: string[], leaf: string): Promise<string[]> {
  const full = await parseSession(files, { view: 'full' });
  const context = await parseSession([leaf], { view: 'context', rompUuid: full.session.rompUuid });
  const kept = new Set(context.session.turns.map((t) => t.id));
  return full.session.turns.filter((t) => !kept.has(t.id)).map((t) => t.id);
}

test('compaction: the turns before the last boundary, located at it, with the summary size', async () => {
  const file = writeJsonl([
    user('u1', null, 'first', 0),
    end('a1', 'u1', 1, 'm1'),
    compactBoundary('b', 'a1', 10),
    user('s', 'b', 'This session is being continued from a previous conversation. 0123456789', 11, {
      isCompactSummary: true,
    }),
    user('u2', 's', 'second', 12),
    end('a2', 'u2', 13, 'm2'),
  ]);
  const report = await check([file]);
  assert.equal(report.full_turns, 2);
  assert.equal(report.context_turns, 1);
  assert.deepEqual(
    report.lost.map((l) => [l.cause, l.line, l.uuid, l.t]),
    [['compaction', 3, 'b', '2026-03-01T10:00:10.000+00:00']],
  );
  assert.deepEqual(
    report.lost.map((l) => l.turn_id),
    await absent([file], file),
  );
  assert.deepEqual({ ...report.causes }, { compaction: 1 });
  const { out } = await runCli(['resume-check', file]);
  assert.match(out, /compaction ×1 at .*:3 \(b, .*by design.*summary 72 characters, 150000 tokens before/);
});

test('a compaction inside a turn: the turn is lost, in part, and the report says its rest loads as a turn', async () => {
  const file = writeJsonl([
    user('u1', null, 'long task', 0),
    assistant('a1', 'u1', toolUse('t1', 'Bash', { command: 'make' }), 1, { mid: 'm1', stop: 'tool_use' }),
    user('r1', 'a1', toolResult('t1', 'ok'), 2),
    compactBoundary('b', 'r1', 10),
    user('s', 'b', 'This session is being continued from a previous conversation. summary', 11, {
      isCompactSummary: true,
    }),
    end('a2', 's', 12, 'm2'),
  ]);
  const report = await check([file]);
  assert.deepEqual([report.full_turns, report.context_turns, report.lost.length], [2, 1, 2]);
  const { out } = await runCli(['resume-check', file, '--timezone', 'UTC']);
  assert.equal(
    out.split('\n')[0],
    `${file}: claude --resume of this file loads 1 turn; 2 of the 2 turns of the full history are not loaded, 1 of them in part: the rest loads as a turn of its own (times in UTC)`,
  );
});

test('dangling logicalParentUuid: the boundary whose history was found by a fallback', async () => {
  const file = writeJsonl([
    user('u1', null, 'first', 0),
    end('a1', 'u1', 1, 'm1'),
    compactBoundary('b', 'gone', 10),
    user('u2', 'b', 'second', 12),
    end('a2', 'u2', 13, 'm2'),
  ]);
  const report = await check([file]);
  assert.deepEqual(
    report.lost.map((l) => [l.cause, l.line, l.uuid]),
    [['dangling_logical_parent', 3, 'b']],
  );
});

test('history gap: the turns before a parent never written, located at the line naming it', async () => {
  const file = writeJsonl([
    user('u1', null, 'first', 0),
    end('a1', 'u1', 1, 'm1'),
    user('u2', 'never-written', 'second', 60),
    end('a2', 'u2', 61, 'm2'),
  ]);
  const report = await check([file]);
  assert.deepEqual(
    report.lost.map((l) => [l.cause, l.file, l.line, l.uuid, l.t]),
    [['history_gap', file, 3, 'u2', '2026-03-01T10:01:00.000+00:00']],
  );
  assert.deepEqual(
    report.lost.map((l) => l.turn_id),
    await absent([file], file),
  );
});

test('split files: a resume file whose first line names a parent in the other file; found beside it by its sessionId', async () => {
  const first = writeJsonl([user('u1', null, 'first', 0), end('a1', 'u1', 1, 'm1')], 'one.jsonl');
  const second = join(dirname(first), 'two.jsonl');
  const dir = dirname(first);
  const lines = [user('u2', 'a1', 'second', 600), end('a2', 'u2', 601, 'm2')];
  copyFileSync(writeJsonl(lines, 'two.jsonl'), second);
  const report = await check([second]);
  assert.equal(report.full_turns, 2);
  assert.deepEqual(
    report.lost.map((l) => [l.cause, basename(l.file), l.line, l.uuid]),
    [['split_files', 'two.jsonl', 1, 'u2']],
  );
  assert.deepEqual(
    report.lost.map((l) => l.turn_id),
    await absent([first, second], second),
  );
  const { out } = await runCli(['resume-check', second]);
  assert.match(out, new RegExp(`other files of this session read: ${join(dir, 'one.jsonl').replace(/[/.]/g, '\\$&')}`));
});

test('branch: a command-only last branch the loader takes, the conversation left at the fork (1.0.x)', async () => {
  const file = writeJsonl([
    user('u1', null, 'fix it', 0, { version: '1.0.24' }),
    end('a1', 'u1', 1, 'm1'),
    user('u2', 'a1', 'and test it', 10, { version: '1.0.24' }),
    end('a2', 'u2', 11, 'm2'),
    user('c1', 'u1', '<command-name>/status</command-name>', 30, { version: '1.0.24' }),
    user('c2', 'c1', '<local-command-stdout>ok</local-command-stdout>', 31, { version: '1.0.24' }),
  ]);
  const report = await check([file]);
  assert.deepEqual(
    report.lost.map((l) => [l.cause, l.line, l.uuid]),
    [['branch', 2, 'a1']],
  );
  assert.deepEqual(
    report.lost.map((l) => l.turn_id),
    await absent([file], file),
  );
});

test("progress overtook: the loader's branch runs through a progress row written after the main chain", async () => {
  const file = writeJsonl([
    user('u1', null, 'fix it', 0, { version: '1.0.24' }),
    end('a1', 'u1', 1, 'm1'),
    user('u2', 'a1', 'and test it', 10, { version: '1.0.24' }),
    end('a2', 'u2', 11, 'm2'),
    progress('p1', 'u1', 30),
    user('c1', 'p1', '<command-name>/status</command-name>', 31, { version: '1.0.24' }),
  ]);
  const report = await check([file]);
  assert.deepEqual(
    report.lost.map((l) => [l.cause, l.line, l.uuid]),
    [['progress_overtook', 2, 'a1']],
  );
});

test('--handoff writes the lost prompts, outcomes, files edited and the last todo list', async () => {
  const file = writeJsonl([
    user('u1', null, 'rename the parser', 0),
    assistant('a1', 'u1', toolUse('t1', 'Edit', { file_path: '/w/parse.ts', old_string: 'a', new_string: 'b' }), 1, {
      mid: 'm1',
      stop: 'tool_use',
    }),
    user('r1', 'a1', [toolResult('t1', 'ok')], 2),
    assistant(
      'a2',
      'r1',
      toolUse('t2', 'TodoWrite', {
        todos: [
          { content: 'rename <img src=x>', status: 'completed' },
          { content: 'test', status: 'in_progress' },
        ],
      }),
      3,
      { mid: 'm2', stop: 'tool_use' },
    ),
    user('r2', 'a2', [toolResult('t2', 'ok')], 4),
    end('a3', 'r2', 5, 'm3'),
    compactBoundary('b', 'a3', 10),
    user('u2', 'b', 'next', 12),
    end('a4', 'u2', 13, 'm4'),
  ]);
  const handoff = join(tempDir('romp-handoff-'), 'lost.md');
  const { code, err } = await runCli(['resume-check', file, '--handoff', handoff, '--timezone', 'America/St_Johns']);
  assert.equal(code, 0, err);
  const md = readFileSync(handoff, 'utf8');
  assert.match(md, /1 of 2 turns/);
  // times as in --json: ISO in --timezone (10:00Z is 06:30 in Newfoundland's winter)
  assert.match(md, /- \*\*compaction\*\* at .*:7 \(b, 2026-03-01T06:30:10\.000-03:30\)/);
  assert.match(md, /### 1\. completed, 2026-03-01T06:30:00\.000-03:30\n\n```\nrename the parser\n```/);
  assert.match(md, /## Files edited in them\n\n- `\/w\/parse\.ts`/);
  // transcript text is escaped, never markup
  assert.match(md, /## Last todo list\n\n- \[x\] rename \\<img src=x\\>\n- \[ \] test \(in\\_progress\)/);
});

test('--handoff with no lost turn says none under its heading', async () => {
  const file = writeJsonl([user('u1', null, 'first', 0), end('a1', 'u1', 1, 'm1')]);
  const handoff = join(tempDir('romp-handoff-'), 'lost.md');
  const { code, err } = await runCli(['resume-check', file, '--handoff', handoff]);
  assert.equal(code, 0, err);
  assert.match(
    readFileSync(handoff, 'utf8'),
    /0 of 1 turn of session .*\n\n## Lost turns\n\nnone\n\n## Files edited in them\n\nnone\n/,
  );
});

test('--write-fork writes the full history as one chain that the SDK reader loads whole', async () => {
  const file = writeJsonl([
    user('u1', null, 'first', 0),
    end('a1', 'u1', 1, 'm1'),
    compactBoundary('b', 'a1', 10),
    user('s', 'b', 'summary', 11, { isCompactSummary: true }),
    user('u2', 's', 'second', 12),
    end('a2', 'u2', 13, 'm2'),
  ]);
  const dir = tempDir('romp-fork-');
  const { code, err } = await runCli(['resume-check', file, '--write-fork', dir]);
  assert.equal(code, 0, err);
  assert.match(err, /getSessionMessages loads all 4 messages in order/);
  const [name] = readdirSync(dir);
  const lines = readFileSync(join(dir, name as string), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { uuid: string; parentUuid: string | null; sessionId: string });
  assert.deepEqual(
    lines.map((l) => [l.uuid, l.parentUuid]),
    [
      ['u1', null],
      ['a1', 'u1'],
      ['u2', 'a1'],
      ['a2', 'u2'],
    ],
  );
  assert.equal(lines[0]?.sessionId, basename(name as string, '.jsonl'));
  // the source is untouched and still loses the turn; the fork loses none
  assert.equal((await check([file])).lost.length, 1);
  assert.equal((await check([join(dir, name as string)])).lost.length, 0);
});

test('romp doctor says, per file at risk, how many turns a resume would not load and why', async () => {
  const gap = writeJsonl([
    user('u1', null, 'first', 0),
    end('a1', 'u1', 1, 'm1'),
    user('u2', 'never-written', 'second', 60),
    end('a2', 'u2', 61, 'm2'),
  ]);
  const whole = writeJsonl([user('u1', null, 'first', 0), end('a1', 'u1', 1, 'm1')]);
  const { out } = await runCli(['doctor', gap, whole]);
  assert.equal(out.match(/resume: /g)?.length, 1);
  assert.match(out, /resume: 1 of 2 turns is not loaded by claude --resume \(history_gap×1\); romp resume-check /);
  // --json says the same, per report
  const json = JSON.parse((await runCli(['doctor', gap, whole, '--json'])).out) as Array<{ resume: unknown }>;
  assert.deepEqual(
    json.map((r) => r.resume),
    [{ lost: 1, full_turns: 2, causes: { history_gap: 1 } }, null],
  );
});

test('--projects DIR --json: one report per main transcript of the folder', async () => {
  const file = writeJsonl([
    user('u1', null, 'first', 0),
    end('a1', 'u1', 1, 'm1'),
    user('u2', 'never-written', 'second', 60),
    end('a2', 'u2', 61, 'm2'),
  ]);
  const projects = tempDir('romp-projects-');
  mkdirSync(join(projects, '-w-demo'));
  copyFileSync(file, join(projects, '-w-demo', 'gap.jsonl'));
  copyFileSync(
    writeJsonl([user('x1', null, 'fine', 0, { sessionId: 'other' }), end('x2', 'x1', 1, 'm9')]),
    join(projects, '-w-demo', 'fine.jsonl'),
  );
  const { code, out } = await runCli(['resume-check', '--projects', projects, '--json']);
  assert.equal(code, 0);
  const reports = JSON.parse(out) as ResumeReport[];
  assert.deepEqual(
    reports.map((r) => [r.full_turns, r.context_turns, { ...r.causes }]),
    [
      [1, 1, {}],
      [2, 1, { history_gap: 1 }],
    ],
  );
});
