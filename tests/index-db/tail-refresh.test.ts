import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { test } from 'node:test';
import { openIndexForRead, openIndexForWrite } from '../../src/index-db/open-index.ts';
import { refreshIndex, type RefreshReport } from '../../src/index-db/refresh-index.ts';
import type { Restart } from '../../src/index-db/restart.ts';
import { corpusTranscripts } from '../helpers/corpus.ts';
import { indexTables } from '../helpers/index-dump.ts';
import { restartOffsets } from '../helpers/restart-offsets.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { assistant, at, progress, SID, text, toolResult, toolUse, user } from '../helpers/transcript.ts';

/** A refresh as a new `romp index` process makes it: no kept watchers, no worker threads. */
async function refresh(path: string, projectsDir: string): Promise<RefreshReport> {
  const db = openIndexForWrite(path, () => assert.fail('the index is sound'));
  try {
    return await refreshIndex(db, { projectsDir, workers: 0 });
  } finally {
    db.close();
  }
}

/** A file's lines, each with its `\n`. */
const linesOf = (text: string): string[] => text.split(/(?<=\n)/);

/**
 * Cuts each file at line boundaries (`cuts` picks them, in order), indexes the first part, then appends each next part
 * and refreshes without kept watchers; after each refresh every table is compared with a fresh build of the files as
 * they are, and the bytes read are each file's tail (from its restart's offset) where it was read from its last turn
 * on, else the whole file.
 * @param before called with the index's path before each append
 * @returns the reports of the refreshes after the appends
 */
async function cutAndAppend(
  files: ReadonlyArray<{ name: string; text: string }>,
  cuts: (lines: string[]) => number[],
  before: (index: string) => void = () => {},
): Promise<RefreshReport[]> {
  const dir = tempDir('romp-tail-');
  const projects = join(dir, 'projects');
  const parts = files.map((f, i) => {
    const lines = linesOf(f.text);
    const at = [0, ...cuts(lines).map((c) => Math.max(1, Math.min(lines.length - 1, c))), lines.length];
    const path = join(projects, `-p-${i}`, f.name);
    mkdirSync(join(projects, `-p-${i}`), { recursive: true });
    return { path, steps: at.slice(1).map((c, k) => lines.slice(at[k], c).join('')) };
  });
  for (const p of parts) writeFileSync(p.path, p.steps[0] as string);
  const index = join(dir, 'index.db');
  await refresh(index, projects);
  const reports: RefreshReport[] = [];
  for (let step = 1; step < (parts[0]?.steps.length ?? 0); step++) {
    const offsets = restartOffsets(index);
    before(index);
    const grown = parts.filter((p) => (p.steps[step] as string).length > 0);
    for (const p of grown) appendFileSync(p.path, p.steps[step] as string);
    const report = await refresh(index, projects);
    const whole = new Set(report.readWhole.map((r) => r.path));
    assert.equal(report.appended, grown.length);
    assert.equal(report.fromLastTurn + report.readWhole.length, grown.length);
    const expected = grown.reduce((n, p) => {
      const size = statSync(p.path).size;
      return n + (whole.has(p.path) ? size : size - (offsets.get(p.path) as number));
    }, 0);
    assert.equal(report.bytesRead, expected, `step ${step}: the bytes read`);
    const fresh = join(tempDir('romp-tail-fresh-'), 'index.db');
    await refresh(fresh, projects);
    const want = indexTables(fresh, ['the', 'error', 'narwhal']);
    const got = indexTables(index, ['the', 'error', 'narwhal']);
    for (const [table, rows] of want) assert.equal(got.get(table), rows, `step ${step}: ${table}`);
    reports.push(report);
  }
  return reports;
}

/** The corpus's main transcripts under 400 KB (subagent files are sessions of their own). */
const corpus = corpusTranscripts()
  .filter((f) => !f.includes('/subagents/') && !basename(f).startsWith('agent-') && statSync(f).size < 400_000)
  .map((f) => ({ name: basename(f), text: readFileSync(f, 'utf8') }));

/** The index of the last line holding `needle` before the last two lines, or -1. */
const lastWith = (lines: string[], needle: string): number =>
  lines.slice(0, -2).findLastIndex((l) => l.includes(needle));

for (const [where, cut] of [
  ['inside a turn (two thirds in)', (lines: string[]) => Math.floor((lines.length * 2) / 3)],
  ['at a turn end (after an end_turn)', (lines: string[]) => lastWith(lines, '"stop_reason":"end_turn"') + 1],
  ['before a tool result', (lines: string[]) => lastWith(lines, '"type":"tool_result"')],
  ['before the last line', (lines: string[]) => lines.length - 1],
  ['before an enqueued prompt', (lines: string[]) => lastWith(lines, '"operation":"enqueue"')],
] as const) {
  test(
    `corpus: cut ${where}, appended, refreshed in a new process: the rows of a fresh build, the tail read`,
    { skip: corpus.length === 0 ? 'no corpus' : false },
    async () => {
      const [report] = (await cutAndAppend(corpus, (lines) => [cut(lines)])) as [RefreshReport];
      const reasons = new Map<string, number>();
      for (const r of report.readWhole) reasons.set(r.reason, (reasons.get(r.reason) ?? 0) + 1);
      console.log(`${where}: ${report.fromLastTurn} of ${report.appended} from the last turn;`, reasons);
      taken.push(report.fromLastTurn);
    },
  );
}

/** How many appends each corpus cut read from the last turn on. */
const taken: number[] = [];

test(
  'corpus: the last turn is where most appends to multi-turn sessions are read from',
  { skip: corpus.length === 0 ? 'no corpus' : false },
  () => {
    // every cut above ran first (tests in a file run in order); counted by hand on 2026-12-02: 11, 1, 10, 14, 0 (the
    // corpus's two files with an enqueue under 400 KB have their queue open at the last turn: no restart)
    assert.equal(taken.length, 5);
    assert.ok(taken.reduce((n, k) => n + k, 0) >= 30, `${taken.join(', ')}`);
  },
);

/** A three-turn session: a rewound prompt in the second turn (rows of no turn), a prompt over a progress row. */
const session = [
  user('u1', null, 'first prompt, about the walrus', 0),
  assistant('a1', 'u1', text('hello'), 1, { mid: 'm1', stop: 'end_turn' }),
  user('u2x', 'a1', 'a rewound prompt, about the otter', 2),
  assistant('a2x', 'u2x', text('a dead reply'), 3, { mid: 'm2x', stop: 'end_turn' }),
  user('u2', 'a1', 'second prompt', 4),
  assistant('a2', 'u2', toolUse('t1', 'Bash', { command: 'ls' }), 5, { mid: 'm2', stop: 'tool_use' }),
  user('r2', 'a2', [toolResult('t1', 'a b c')], 6),
  assistant('a3', 'r2', text('done'), 7, { mid: 'm3', stop: 'end_turn' }),
  progress('p3', 'a3', 8),
  user('u3', 'p3', 'third prompt, about the narwhal', 9),
  assistant('a4', 'u3', toolUse('t2', 'Read', { file_path: '/work/demo/x.ts' }), 10, { mid: 'm4', stop: 'tool_use' }),
  user('r4', 'a4', [toolResult('t2', 'the narwhal file')], 11),
  assistant('a5', 'r4', text('read it'), 12, { mid: 'm5', stop: 'end_turn' }),
  user('u4', 'a5', 'fourth prompt', 13),
  assistant('a6', 'u4', text('the narwhal again'), 14, { mid: 'm6', stop: 'end_turn' }),
  user('u5', 'a6', 'fifth prompt', 15),
  assistant('a7', 'u5', text('ok'), 16, { mid: 'm7', stop: 'end_turn' }),
];
const fixture = { name: 'fixture-session.jsonl', text: session.map((l) => `${JSON.stringify(l)}\n`).join('') };

test('fixture: appends inside a turn, before a tool result, at turn ends, each read from the last turn on', async () => {
  // cut after u3 (inside the third turn), after a4 (before its tool result), after a5 (its end), after a6, after a7
  const reports = await cutAndAppend([fixture], () => [10, 11, 13, 15]);
  // each step changes one turn: the third twice (a4, then r4 and a5), then a new one each time (the ended turn before
  // it is as the index holds it: not written)
  assert.deepEqual(
    reports.map((r) => [r.fromLastTurn, r.readWhole, r.turnsWritten]),
    [
      [1, [], 1],
      [1, [], 1],
      [1, [], 1],
      [1, [], 1],
    ],
  );
});

test('fixture: a file with no restart says why at its next append: a checkpoint, a broken line', async () => {
  const prompt = `${JSON.stringify(user('u9', 'a7', 'one more prompt', 30))}\n`;
  const checkpoint = `${JSON.stringify({ type: 'last-prompt', lastPrompt: 'x', leafUuid: 'a7', sessionId: SID })}\n`;
  const broken = '{"type":"user","uuid":"torn\n';
  const reasons: string[] = [];
  for (const before of [checkpoint, broken]) {
    const whole = `${fixture.text}${before}${prompt}`;
    const [report] = (await cutAndAppend([{ name: fixture.name, text: whole }], (lines) => [lines.length - 1])) as [
      RefreshReport,
    ];
    reasons.push(...report.readWhole.map((r) => r.reason));
  }
  assert.deepEqual(reasons, [
    'no restart point: a last-prompt checkpoint',
    'no restart point: a session with diagnostics',
  ]);
});

test('fixture: a rewind in the tail is read whole, with why, and gives the same rows', async () => {
  const rewind = user('u9', 'a3', 'back to the second turn', 20);
  const whole = `${fixture.text}${JSON.stringify(rewind)}\n`;
  const [report] = (await cutAndAppend([{ name: fixture.name, text: whole }], (lines) => [lines.length - 1])) as [
    RefreshReport,
  ];
  assert.equal(report.fromLastTurn, 0);
  assert.match(report.readWhole[0]?.reason ?? '', /a diagnostic in the tail/);
});

/** A `queue-operation` line of the fixture's session, `sec` seconds in. */
const q = (operation: string, sec: number, content?: string): string =>
  JSON.stringify({
    type: 'queue-operation',
    operation,
    timestamp: at(sec),
    sessionId: SID,
    ...(content === undefined ? {} : { content }),
  });

/** A line as Claude Code before 2.1.112 wrote it: a prompt absorbed mid-turn has no line of its own. */
const old = (l: Record<string, unknown>): string => JSON.stringify({ ...l, version: '2.1.96' });

test('fixture: queue operations in the tail (a prompt absorbed mid-turn, one delivered at idle) are read from the last turn on', async () => {
  const tail = [
    old(user('u6', 'a7', 'sixth prompt', 17)),
    old(assistant('a8', 'u6', toolUse('t3', 'Bash', { command: 'make' }), 18, { mid: 'm8', stop: 'tool_use' })),
    q('enqueue', 18.5, 'also rename the walrus'),
    old(user('r6', 'a8', [toolResult('t3', 'built')], 19)),
    q('remove', 19.5),
    old(assistant('a9', 'r6', text('built and renamed'), 20, { mid: 'm9', stop: 'end_turn' })),
    q('enqueue', 21, 'seventh prompt'),
    q('dequeue', 22),
    old(user('u7', 'a9', 'seventh prompt', 22, { promptSource: 'queued' })),
  ];
  const whole = `${fixture.text}${tail.map((l) => `${l}\n`).join('')}`;
  const lines = linesOf(whole).length;
  // cut after u6's call (the queue empty where the last turn starts), then after a9 (the absorbed prompt answered: a
  // generated prompt not yet answered leaves no restart), then the rest
  const reports = await cutAndAppend([{ name: fixture.name, text: whole }], () => [lines - 7, lines - 3]);
  assert.deepEqual(
    reports.map((r) => [r.fromLastTurn, r.readWhole]),
    [
      [1, []],
      [1, []],
    ],
  );
  // a prompt enqueued before the tail waits there, and the tail's remove takes it (the oldest): the restarts carry
  // what waits before their line, and the keys of the prompts generated before it
  const otter = q('enqueue', 16.5, 'rename the otter');
  const more = [
    old(assistant('a10', 'u7', text('seventh done'), 23, { mid: 'm10', stop: 'end_turn' })),
    old(user('u8', 'a10', 'eighth prompt', 24)),
    old(assistant('a11', 'u8', text('eighth done'), 25, { mid: 'm11', stop: 'end_turn' })),
  ];
  const waiting = `${fixture.text}${otter}\n${[...tail, ...more].map((l) => `${l}\n`).join('')}`;
  const n = linesOf(fixture.text).length;
  const seen: Array<[Restart['point']['queue'], number]> = [];
  const steps = await cutAndAppend(
    [{ name: fixture.name, text: waiting }],
    () => [n + 3, n + 7, n + 10, n + 12],
    (index) => {
      const db = openIndexForRead(index);
      if (typeof db === 'string') assert.fail(db);
      const json = String(db.all('SELECT restart_json FROM restarts')[0]?.['restart_json']);
      const generated = db.all("SELECT key FROM atoms WHERE key LIKE 'queued:%'").length;
      db.close();
      seen.push([(JSON.parse(json) as Restart).point.queue, generated]);
    },
  );
  assert.deepEqual(
    steps.map((r) => [r.fromLastTurn, r.readWhole]),
    [
      [1, []],
      [1, []],
      [1, []],
      [1, []],
    ],
  );
  // the otter waits before u6 (twice: u6's turn is the last); before u7 the seventh prompt does (the remove took the
  // otter, the dequeue the walrus, u7 takes it), and before u8 none; the otter was generated, in the index since the
  // first append
  assert.deepEqual(
    seen.map(([r, generated]) => [r?.waiting.map((w) => [w.content, w.line, w.t]), r?.seen.length, generated]),
    [
      [[['rename the otter', n + 1, Date.parse(at(16.5))]], 0, 0],
      [[['rename the otter', n + 1, Date.parse(at(16.5))]], 0, 1],
      [[['seventh prompt', n + 8, Date.parse(at(21))]], 1, 1],
      [[], 1, 1],
    ],
  );
});

test('fixture: the keys of prompts generated before a tail stand through a tail with no queue operation', async () => {
  const lines = [
    old(user('u1', null, 'first prompt', 1)),
    old(assistant('a1', 'u1', toolUse('t1', 'Bash', { command: 'ls' }), 2, { mid: 'm1', stop: 'tool_use' })),
    q('enqueue', 2.5, 'hello there'),
    old(user('r1', 'a1', [toolResult('t1', 'a b')], 3)),
    q('remove', 3.5),
    old(assistant('a2', 'r1', text('done'), 4, { mid: 'm2', stop: 'end_turn' })),
    old(user('u2', 'a2', 'second prompt', 5)),
    old(assistant('a3', 'u2', text('ok'), 6, { mid: 'm3', stop: 'end_turn' })),
    // a tail with no queue operation: its restart must still say the prompt above was generated
    old(user('u3', 'a3', 'third prompt', 7)),
    old(assistant('a4', 'u3', toolUse('t2', 'Bash', { command: 'make' }), 8, { mid: 'm4', stop: 'tool_use' })),
    // a copy of the first enqueue (same time, same text) taken later: one prompt, generated once
    q('enqueue', 2.5, 'hello there'),
    old(user('r2', 'a4', [toolResult('t2', 'built')], 9)),
    q('remove', 9.5),
    old(assistant('a5', 'r2', text('built'), 10, { mid: 'm5', stop: 'end_turn' })),
  ];
  const whole = lines.map((l) => `${l}\n`).join('');
  // cut after a3 (the restart at u2 holds the key), then after a4 (the restart at u3 must hold it too)
  const reports = await cutAndAppend([{ name: 'seen.jsonl', text: whole }], () => [8, 10]);
  assert.deepEqual(
    reports.map((r) => [r.fromLastTurn, r.readWhole]),
    [
      [1, []],
      [1, []],
    ],
  );
  // a prompt popped back to the input box before the tail does not wait there: the tail's remove takes nothing
  const popped = [
    ...lines.slice(0, 3),
    q('popAll', 2.6),
    ...lines.slice(3, 4),
    ...lines.slice(5, 7),
    old(assistant('a3', 'u2', toolUse('t2', 'Bash', { command: 'make' }), 6, { mid: 'm3', stop: 'tool_use' })),
    q('remove', 6.5),
    old(user('r2', 'a3', [toolResult('t2', 'built')], 7)),
    old(assistant('a4', 'r2', text('built'), 8, { mid: 'm4', stop: 'end_turn' })),
  ];
  const [report] = (await cutAndAppend([{ name: 'popped.jsonl', text: popped.map((l) => `${l}\n`).join('') }], () => [
    8,
  ])) as [RefreshReport];
  assert.deepEqual([report.fromLastTurn, report.readWhole], [1, []]);
});

test('fixture: a main-chain response in the tail with a sidechain copy of no turn before it is read whole', async () => {
  // an inline sidechain line (Claude Code up to 2.0.27 wrote them in the session's file) off the path: its response's
  // fact has no turn, and a whole read counts the main-chain line of the same response instead (countUsage's rule 3)
  // (another request id: the same key would be a response begun before the tail)
  const copy = assistant('s1', 'a3', text('a sidechain reply'), 15.5, {
    mid: 'm9',
    extra: { isSidechain: true, requestId: 'req_other' },
  });
  const main = assistant('a9', 'a7', text('the same response'), 18, { mid: 'm9', stop: 'end_turn' });
  const whole = `${fixture.text}${JSON.stringify(copy)}\n${JSON.stringify(main)}\n`;
  const [report] = (await cutAndAppend([{ name: fixture.name, text: whole }], (lines) => [lines.length - 1])) as [
    RefreshReport,
  ];
  assert.deepEqual(
    report.readWhole.map((r) => r.reason),
    ['a sidechain copy of a tail response'],
  );
});
