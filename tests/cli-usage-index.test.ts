import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { openIndexForRead } from '../src/index-db/open-index.ts';
import { storedUsage } from '../src/index-db/usage-files.ts';
import { CORPUS_TRANSCRIPTS, corpusPresent } from './helpers/corpus.ts';
import { runCli } from './helpers/run-cli.ts';
import { tempDir } from './helpers/temp-dir.ts';
import { assistant, text, user } from './helpers/transcript.ts';

const line = (l: object): string => `${JSON.stringify(l)}\n`;
const s1 = { sessionId: 's1' };

/**
 * One project. s1: m1 in two snapshots (output 1, then 50: the final one counts), m2 with a negative
 * `input_tokens` (`BAD_USAGE`, counted 0), m3 of a model with no price and no timestamp; its nested
 * subagent: m4 on the sidechain; s2, a fork: a copy of m1's final line (counted once, as s1's).
 * Responses 4; input 100 + 0 + 3 + 20 = 123; output 50 + 7 + 4 + 2 = 63.
 */
function projects(): { root: string; s1: string; s2: string } {
  const root = tempDir('romp-usage-index-');
  const project = join(root, '-work-app');
  mkdirSync(join(project, 's1', 'subagents'), { recursive: true });
  const m1 = assistant('a1b', 'a1', text('Done.'), 3, {
    mid: 'm1',
    stop: 'end_turn',
    usage: { input_tokens: 100, output_tokens: 50 },
    extra: s1,
  });
  const s1Path = join(project, 's1.jsonl');
  writeFileSync(
    s1Path,
    [
      user('u1', null, 'count it', 1, s1),
      assistant('a1', 'u1', text('Do'), 2, { mid: 'm1', usage: { input_tokens: 100, output_tokens: 1 }, extra: s1 }),
      m1,
      assistant('a2', 'a1b', text('More'), 4, {
        mid: 'm2',
        stop: 'end_turn',
        usage: { input_tokens: -5, output_tokens: 7 },
        extra: s1,
      }),
      {
        ...assistant('a3', 'a2', text('?'), 5, {
          mid: 'm3',
          stop: 'end_turn',
          usage: { input_tokens: 3, output_tokens: 4 },
          extra: s1,
        }),
        timestamp: undefined,
        message: {
          id: 'm3',
          role: 'assistant',
          model: 'claude-mystery-9',
          content: [],
          stop_reason: 'end_turn',
          usage: { input_tokens: 3, output_tokens: 4 },
        },
      },
    ]
      .map(line)
      .join(''),
  );
  writeFileSync(
    join(project, 's1', 'subagents', 'agent-n.jsonl'),
    line(
      assistant('x1', null, text('looked'), 6, {
        mid: 'm4',
        stop: 'end_turn',
        usage: { input_tokens: 20, output_tokens: 2 },
        extra: { ...s1, isSidechain: true },
      }),
    ),
  );
  const s2Path = join(project, 's2.jsonl');
  writeFileSync(
    s2Path,
    [
      user('v1', null, 'fork', 90_000, { sessionId: 's2' }),
      { ...m1, sessionId: 's2', timestamp: '2026-03-02T12:00:00.000Z' },
    ]
      .map(line)
      .join(''),
  );
  return { root, s1: s1Path, s2: s2Path };
}

/** Which files the index's usage is taken for now (`stored`) and which are read. */
async function sources(root: string, home: string): Promise<Record<string, string>> {
  const db = openIndexForRead(join(home, 'index.db'));
  if (typeof db === 'string') assert.fail(db);
  const from: Record<string, string> = {};
  try {
    const stored = storedUsage(db);
    for (const path of ['-work-app/s1.jsonl', '-work-app/s2.jsonl', '-work-app/s1/subagents/agent-n.jsonl'])
      from[path] = (await stored(join(root, path))) === undefined ? 'read' : 'stored';
  } finally {
    db.close();
  }
  return from;
}

const REPORTS = [
  [],
  ['session'],
  ['weekly', '--breakdown'],
  ['monthly'],
  ['project'],
  ['blocks'],
  ['daily', '--since', '20260302'],
];

/** Every report, human and JSON, with the index and with --no-index: the same bytes, stdout and stderr. */
async function same(root: string, home: string): Promise<Record<string, number>> {
  let total: Record<string, number> = {};
  for (const report of REPORTS)
    for (const json of [[], ['--json']]) {
      const args = ['usage', ...report, '--projects', root, '--timezone', 'UTC', ...json];
      const indexed = await runCli([...args, '--romp-home', home], 120);
      const read = await runCli([...args, '--no-index'], 120);
      assert.equal(indexed.out, read.out, args.join(' '));
      assert.equal(indexed.err, read.err, args.join(' '));
      assert.equal(indexed.code, read.code);
      if (report.length === 0 && json.length > 0)
        total = (JSON.parse(indexed.out) as { total: Record<string, number> }).total;
    }
  return total;
}

test('romp usage from the index: fresh files are not read, a changed one is, the output is the same', async () => {
  const { root, s1: s1Path, s2 } = projects();
  const home = tempDir('romp-home-');
  assert.equal((await runCli(['index', '--projects', root, '--romp-home', home, '--no-progress'])).code, 0);
  assert.deepEqual(Object.values(await sources(root, home)), ['stored', 'stored', 'stored']);
  const total = await same(root, home);
  assert.deepEqual(
    [total['responses'], total['input_tokens'], total['output_tokens'], total['unpriced']],
    [4, 123, 63, 1],
  );
  const warned = await runCli(['usage', '--projects', root, '--romp-home', home]);
  assert.match(warned.err, /s1\.jsonl:4: warning BAD_USAGE/);
  // FILES given: each one's usage from the index too (s1 and its subagent: m1, m2, m3, m4)
  const given = ['usage', s1Path, '--json', '--timezone', 'UTC'];
  const fromIndex = await runCli([...given, '--romp-home', home]);
  assert.equal(fromIndex.out, (await runCli([...given, '--no-index'])).out);
  assert.equal((JSON.parse(fromIndex.out) as { total: { responses: number } }).total.responses, 4);

  // an append to s1 (m5: 1,000 in): read again; a touched s2: read again; the subagent stays the index's
  appendFileSync(
    s1Path,
    line(
      assistant('a5', 'a3', text('late'), 7, {
        mid: 'm5',
        stop: 'end_turn',
        usage: { input_tokens: 1000, output_tokens: 0 },
        extra: s1,
      }),
    ),
  );
  utimesSync(s2, new Date('2026-03-03T00:00:00Z'), new Date('2026-03-03T00:00:00Z'));
  assert.deepEqual(await sources(root, home), {
    '-work-app/s1.jsonl': 'read',
    '-work-app/s2.jsonl': 'read',
    '-work-app/s1/subagents/agent-n.jsonl': 'stored',
  });
  const grown = await same(root, home);
  assert.deepEqual([grown['responses'], grown['input_tokens']], [5, 1123]);

  // a refresh takes the changes in: every file's usage is the index's again
  assert.equal((await runCli(['index', '--projects', root, '--romp-home', home, '--no-progress'])).code, 0);
  assert.deepEqual(Object.values(await sources(root, home)), ['stored', 'stored', 'stored']);
  assert.deepEqual(await same(root, home), grown);
});

test('romp usage over the corpus: with the index and without, byte for byte', { skip: !corpusPresent }, async () => {
  const home = tempDir('romp-home-');
  const index = await runCli(['index', '--projects', CORPUS_TRANSCRIPTS, '--romp-home', home, '--no-progress']);
  assert.equal(index.code, 0, index.err);
  const db = openIndexForRead(join(home, 'index.db'));
  if (typeof db === 'string') assert.fail(db);
  const rows = db.all('SELECT count(*) AS n FROM usage_files')[0]?.['n'];
  const files = db.all('SELECT count(*) AS n FROM files')[0]?.['n'];
  db.close();
  assert.ok(Number(rows) >= 10 && rows === files, `${String(rows)} of ${String(files)} files`);
  await same(CORPUS_TRANSCRIPTS, home);
});

test('romp usage from the index of a folder named relative to here: the same output, the diagnostics naming it so', async () => {
  const { root } = projects();
  const home = tempDir('romp-home-');
  const here = relative(process.cwd(), root);
  // indexed by the relative name, read by both: the index keeps absolute paths
  assert.equal((await runCli(['index', '--projects', here, '--romp-home', home, '--no-progress'])).code, 0);
  assert.deepEqual(Object.values(await sources(here, home)), ['stored', 'stored', 'stored']);
  for (const folder of [here, root]) {
    const total = await same(folder, home);
    assert.deepEqual(
      [total['responses'], total['input_tokens'], total['output_tokens'], total['unpriced']],
      [4, 123, 63, 1],
    );
  }
  const warned = await runCli(['usage', '--projects', here, '--romp-home', home]);
  assert.ok(warned.err.includes(`${join(here, '-work-app', 's1.jsonl')}:4: warning BAD_USAGE`), warned.err);
  // what the index gives for the file names it as it was asked for, its responses and its diagnostics
  const db = openIndexForRead(join(home, 'index.db'));
  if (typeof db === 'string') assert.fail(db);
  try {
    const asked = join(here, '-work-app', 's1.jsonl');
    const got = await storedUsage(db)(asked);
    assert.deepEqual(
      [[...new Set([...(got?.groups.values() ?? [])].map((r) => r.file))], got?.diagnostics.map((d) => d.file)],
      [[asked], [asked]],
    );
  } finally {
    db.close();
  }
});
