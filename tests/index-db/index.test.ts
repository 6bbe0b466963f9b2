import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { openDatabase } from '../../src/index-db/database.ts';
import { SETTLED_MS, stampFile, type FileStamp } from '../../src/index-db/file-stamp.ts';
import { refreshStamped } from '../../src/index-db/stamped-rows.ts';
import { openIndexForRead, openIndexForWrite } from '../../src/index-db/open-index.ts';
import type { Restart } from '../../src/index-db/restart.ts';
import { refreshIndex, type WatcherCache } from '../../src/index-db/refresh-index.ts';
import { searchIndex } from '../../src/index-db/search-index.ts';
import { indexPath, updateIndex } from '../../src/index-db/update-index.ts';
import { timeFormat } from '../../src/cli/format-time.ts';
import { runCli } from '../helpers/run-cli.ts';
import { dumpIndex } from '../helpers/index-dump.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { T0, assistant, text, toolResult, toolUse, user } from '../helpers/transcript.ts';

type Line = Record<string, unknown>;
const jsonl = (lines: Array<Line | string>): string =>
  lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n';
const as = (sessionId: string, lines: Line[]): Line[] => lines.map((l) => ({ ...l, sessionId }));

/** A projects folder: s1 (a human prompt, a Bash call, a Task call with its subagent), s2 (a rewind), s3 (a broken
 * line). */
function projects(): { dir: string; s1: string; s2: string; s3: string } {
  const dir = tempDir('romp-index-');
  const project = join(dir, '-work-demo');
  mkdirSync(join(project, 's1', 'subagents'), { recursive: true });
  const s1 = join(project, 's1.jsonl');
  writeFileSync(
    s1,
    jsonl(
      as('s1', [
        user('u1', null, 'why does the flamingo build fail', 0),
        assistant('a1', 'u1', toolUse('t1', 'Bash', { command: 'make flamingo' }), 1, { mid: 'm1', stop: 'tool_use' }),
        user('r1', 'a1', [toolResult('t1', 'error: zebra missing')], 2),
        assistant('a2', 'r1', toolUse('t2', 'Task', { prompt: 'look for the zebra' }), 3, {
          mid: 'm2',
          stop: 'tool_use',
        }),
        user('r2', 'a2', [toolResult('t2', 'found it')], 9),
        assistant('a3', 'r2', text('The zebra package is not installed.'), 10, { mid: 'm3', stop: 'end_turn' }),
      ]),
    ),
  );
  writeFileSync(
    join(project, 's1', 'subagents', 'agent-x1.jsonl'),
    jsonl(
      as('s1', [
        user('x1', null, 'look for the zebra', 4, { isSidechain: true }),
        assistant('x2', 'x1', text('The pelican module provides zebra.'), 5, {
          mid: 'mx',
          stop: 'end_turn',
          extra: { isSidechain: true },
        }),
      ]),
    ),
  );
  writeFileSync(join(project, 's1', 'subagents', 'agent-x1.meta.json'), JSON.stringify({ toolUseId: 't2' }));
  const s2 = join(project, 's2.jsonl');
  writeFileSync(
    s2,
    jsonl(
      as('s2', [
        user('v1', null, 'start here', 0),
        assistant('w1', 'v1', text('Started.'), 1, { mid: 'n1', stop: 'end_turn' }),
        user('v2', 'w1', 'abandoned walrus idea', 2),
        user('v3', 'w1', 'the kept idea', 5),
        assistant('w3', 'v3', text('Kept.'), 6, { mid: 'n3', stop: 'end_turn' }),
      ]),
    ),
  );
  const s3 = join(project, 's3.jsonl');
  writeFileSync(s3, jsonl([...as('s3', [user('y1', null, 'hello otter', 0)]), '{"broken']));
  return { dir, s1, s2, s3 };
}

async function build(
  dir: string,
  watchers?: WatcherCache,
  workers?: number,
): Promise<{ path: string; report: Awaited<ReturnType<typeof refreshIndex>> }> {
  const path = join(tempDir('romp-home-'), 'index.db');
  const db = openIndexForWrite(path, () => assert.fail('no diagnostic for a new index'));
  const report = await refreshIndex(db, {
    projectsDir: dir,
    ...(watchers === undefined ? {} : { watchers }),
    ...(workers === undefined ? {} : { workers }),
  });
  db.close();
  return { path, report };
}

function reader(path: string): ReturnType<typeof openDatabase> {
  const db = openIndexForRead(path);
  if (typeof db === 'string') assert.fail(db);
  return db;
}

function sessionCount(path: string): unknown {
  const db = reader(path);
  const n = db.all('SELECT count(*) AS n FROM sessions')[0]?.['n'];
  db.close();
  return n;
}

test('index: every transcript, subagents as sessions linked to their parent', async () => {
  const { dir } = projects();
  const { path, report } = await build(dir);
  assert.deepEqual([report.files, report.added, report.unchanged], [4, 4, 0]);
  const db = reader(path);
  assert.deepEqual(
    db.all('SELECT key, parent_key, parent_tool_use_id, turns FROM sessions ORDER BY key').map((r) => ({ ...r })),
    [
      { key: 's1', parent_key: null, parent_tool_use_id: null, turns: 1 },
      { key: 's1/agent-x1', parent_key: 's1', parent_tool_use_id: 't2', turns: 1 },
      { key: 's2', parent_key: null, parent_tool_use_id: null, turns: 2 },
      { key: 's3', parent_key: null, parent_tool_use_id: null, turns: 1 },
    ],
  );
  assert.deepEqual(
    { ...db.all("SELECT subagent_key, linked_by FROM subagents WHERE session_key = 's1'")[0] },
    { subagent_key: 's1/agent-x1', linked_by: 'meta' },
  );
  assert.deepEqual(
    { ...db.all("SELECT tool_use_id, subagent_key FROM tool_calls WHERE name = 'Task'")[0] },
    { tool_use_id: 't2', subagent_key: 's1/agent-x1' },
  );
  // the broken line is a diagnostics row, the rest of the file is indexed
  assert.deepEqual(
    { ...db.all("SELECT code, line FROM diagnostics WHERE session_key = 's3'")[0] },
    { code: 'INVALID_JSON', line: 2 },
  );
  db.close();
});

test('search: text typed by a human, written by a tool, said in a subagent; --author human leaves tool output out', async () => {
  const { dir } = projects();
  const db = reader((await build(dir)).path);
  const typed = searchIndex(db, 'flamingo');
  // the typed prompt ranks above the tool input that also holds the word
  assert.deepEqual(
    typed.map((h) => [h.session_id, h.uuid, h.role, h.turn, h.author]),
    [
      ['s1', 'u1', 'typed', 1, 'human'],
      ['s1', 'a1', 'tool_use', 1, null],
    ],
  );
  assert.deepEqual([typed[0]!.snippet, typed[0]!.matches], ['why does the flamingo build fail', [[13, 21]]]);
  assert.deepEqual(
    searchIndex(db, 'zebra missing').map((h) => [h.uuid, h.role, h.tool]),
    [['r1', 'tool_result', 'Bash']],
  );
  // a subagent's hit resumes its parent session: Claude Code resumes sessions, not a subagent's file
  assert.deepEqual(
    searchIndex(db, 'pelican').map((h) => [h.session_id, h.uuid, h.resume_id]),
    [['s1/agent-x1', 'x2', 's1']],
  );
  assert.deepEqual(
    searchIndex(db, 'zebra', { author: 'human' }).map((h) => h.uuid),
    [],
  );
  assert.deepEqual(
    searchIndex(db, 'flamingo', { author: 'human' }).map((h) => h.uuid),
    ['u1'],
  );
  // a tool's name in any case (`bash` is Claude Code's `Bash`), and only that tool
  for (const tool of ['Bash', 'bash', 'BASH'])
    assert.deepEqual(
      searchIndex(db, 'zebra', { tool }).map((h) => h.uuid),
      ['r1'],
      tool,
    );
  assert.deepEqual(searchIndex(db, 'zebra', { tool: 'Read' }), []);
  // a part of a word: the trigram index
  assert.deepEqual(
    searchIndex(db, 'lamin').map((h) => [h.uuid, h.matched]),
    [
      ['a1', 'substring'],
      ['u1', 'substring'],
    ],
  );
  // a NUL (from the serve box's ?q=%00) ended FTS5's quoted string: "unterminated string"
  assert.deepEqual(
    searchIndex(db, 'zebra\u0000missing').map((h) => h.uuid),
    ['r1'],
  );
  assert.deepEqual(searchIndex(db, '\u0000\u0007'), []);
  db.close();
});

test('search: a rewound branch is no hit unless all branches are asked for', async () => {
  const { dir } = projects();
  const db = reader((await build(dir)).path);
  assert.deepEqual(searchIndex(db, 'walrus'), []);
  assert.deepEqual(
    searchIndex(db, 'walrus', { allBranches: true }).map((h) => [h.uuid, h.turn, h.on_path]),
    [['v2', null, false]],
  );
  // a rewound line keeps its own time: a hit on it is dated, and a day range keeps it
  assert.deepEqual(
    searchIndex(db, 'walrus', { allBranches: true, since: T0 + 2000, until: T0 + 3000 }).map((h) => [h.uuid, h.t]),
    [['v2', T0 + 2000]],
  );
  assert.deepEqual(
    db.all("SELECT key, t FROM atoms WHERE session_key = 's2' AND on_path = 0").map((r) => [r['key'], r['t']]),
    [['v2', T0 + 2000]],
  );
  db.close();
});

test('refresh: nothing changed reads nothing; an append is found and only that file is read again', async () => {
  const { dir, s2 } = projects();
  const { path } = await build(dir);
  const db = openIndexForWrite(path, () => assert.fail('the index is sound'));
  const again = await refreshIndex(db, { projectsDir: dir });
  assert.deepEqual([again.unchanged, again.bytesRead, again.read], [4, 0, []]);
  appendFileSync(s2, jsonl(as('s2', [user('v4', 'w3', 'now the narwhal', 20)])));
  const { size } = await import('node:fs').then((fs) => fs.statSync(s2));
  // a new process has no watcher: the one grown file is read from its last turn's first line on (its restart)
  const restart = db.all('SELECT restart_json FROM restarts WHERE path = ?', [s2])[0]?.['restart_json'];
  const from = (JSON.parse(String(restart)) as Restart).point.byteOffset;
  assert.ok(from > 0);
  const after = await refreshIndex(db, { projectsDir: dir });
  // the one new turn is written
  assert.deepEqual(
    [after.appended, after.unchanged, after.read, after.fromLastTurn, after.bytesRead, after.turnsWritten],
    [1, 3, [s2], 1, size - from, 1],
  );
  assert.deepEqual(
    searchIndex(db, 'narwhal').map((h) => [h.uuid, h.turn]),
    [['v4', 3]],
  );
  db.close();
});

test('refresh: a settled file unchanged to its stat is not opened; a same-size rewrite with its mtime kept is read', async () => {
  const { dir, s2 } = projects();
  // a ctime less than SETTLED_MS old is not kept: the first refresh after it stamps the file again
  await new Promise((resolve) => setTimeout(resolve, SETTLED_MS + 100));
  const { path } = await build(dir);
  const db = openIndexForWrite(path, () => assert.fail('the index is sound'));
  const again = await refreshIndex(db, { projectsDir: dir });
  assert.deepEqual([again.unchanged, again.statOnly, again.bytesRead], [4, 4, 0]);
  // the same bytes count with another word, the mtime put back: only the ctime says it changed
  const { mtime } = statSync(s2);
  writeFileSync(s2, readFileSync(s2, 'utf8').replace('walrus', 'wombat'));
  utimesSync(s2, mtime, mtime);
  const after = await refreshIndex(db, { projectsDir: dir });
  assert.deepEqual([after.statOnly, after.reread, after.read], [3, 1, [s2]]);
  assert.deepEqual(
    searchIndex(db, 'wombat', { allBranches: true }).map((h) => h.uuid),
    ['v2'],
  );
  db.close();
});

test('refresh with kept watchers: an append reads only its bytes', async () => {
  const { dir, s1 } = projects();
  const watchers: WatcherCache = new Map();
  const { path } = await build(dir, watchers);
  const db = openIndexForWrite(path, () => assert.fail('the index is sound'));
  const line = jsonl(as('s1', [user('u9', 'a3', 'and the okapi', 30)]));
  appendFileSync(s1, line);
  const after = await refreshIndex(db, { projectsDir: dir, watchers });
  assert.deepEqual([after.appended, after.read, after.bytesRead], [1, [s1], Buffer.byteLength(line)]);
  assert.deepEqual(
    searchIndex(db, 'okapi').map((h) => [h.uuid, h.turn]),
    [['u9', 2]],
  );
  db.close();
});

test('refresh: a rewritten file is read again, a vanished one removed', async () => {
  const { dir, s2, s3 } = projects();
  const { path } = await build(dir);
  const db = openIndexForWrite(path, () => assert.fail('the index is sound'));
  writeFileSync(s2, jsonl(as('s2', [user('q1', null, 'entirely new quokka', 0)])));
  rmSync(s3);
  const after = await refreshIndex(db, { projectsDir: dir });
  assert.deepEqual([after.reread, after.removed], [1, 1]);
  assert.deepEqual(
    searchIndex(db, 'quokka').map((h) => h.uuid),
    ['q1'],
  );
  assert.deepEqual(searchIndex(db, 'kept'), []);
  assert.deepEqual(db.all("SELECT count(*) AS n FROM atoms WHERE session_key = 's3'")[0]?.['n'], 0);
  // its stamped rows go with it: what romp ls and romp usage take from the index, where an append is read from
  for (const table of ['files', 'listings', 'usage_files', 'usage_parts', 'restarts'])
    assert.deepEqual(db.all(`SELECT path FROM ${table} WHERE path = ?`, [s3]), [], table);
  assert.equal(db.all('SELECT count(*) AS n FROM usage_parts')[0]?.['n'], 3); // s1, its subagent's, s2
  db.close();
});

test("romp index of another projects folder says that the first one's sessions were removed", async () => {
  const first = projects();
  const other = tempDir('romp-index-other-');
  mkdirSync(join(other, '-work-b'));
  writeFileSync(join(other, '-work-b', 'b1.jsonl'), jsonl(as('b1', [user('b1', null, 'the other heron', 0)])));
  const home = tempDir('romp-home-');
  const index = (dir: string): ReturnType<typeof runCli> => runCli(['index', '--projects', dir, '--romp-home', home]);
  const said = (err: string): boolean => err.includes('of the other folder removed');
  // the first build, and a refresh of the same folder named another way, say nothing of it
  for (const dir of [first.dir, `${first.dir}/`]) assert.equal(said((await index(dir)).err), false);
  // named relative to here, the same files: every path the index keeps is absolute
  const relativeRun = await index(relative(process.cwd(), first.dir));
  assert.equal(said(relativeRun.err), false);
  assert.match(relativeRun.out, /4 transcripts: 0 added, 0 appended, 0 read again, 0 removed, 4 unchanged/);
  const moved = await index(other);
  assert.equal(moved.code, 0);
  // s1, its subagent, s2, s3: four transcripts' rows removed, named with both folders
  assert.match(moved.out, /1 transcript: 1 added, 0 appended, 0 read again, 4 removed/);
  assert.equal(
    moved.err,
    `romp: ${join(home, 'index.db')} held the sessions of ${first.dir}; now of ${other} (4 transcripts of the other folder removed; --romp-home keeps an index of its own)\n`,
  );
  assert.equal(said((await index(other)).err), false);
  // --json: the report names the folder it held before
  const back = await runCli(['index', '--json', '--projects', first.dir, '--romp-home', home]);
  assert.deepEqual((JSON.parse(back.out) as { formerProjectsDir: string; removed: number }).formerProjectsDir, other);
});

test('refresh: a file rewritten with its uuids and turns kept but other text is indexed anew', async () => {
  const { dir, s3 } = projects();
  const { path } = await build(dir);
  const db = openIndexForWrite(path, () => assert.fail('the index is sound'));
  // the same line, the same turn (one atom, open), another word: a redaction tool's rewrite in place
  writeFileSync(s3, jsonl([...as('s3', [user('y1', null, 'hello walrus', 0)]), '{"broken']));
  const after = await refreshIndex(db, { projectsDir: dir });
  assert.deepEqual([after.reread, after.turnsWritten], [1, 1]);
  assert.deepEqual(
    searchIndex(db, 'walrus').map((h) => h.uuid),
    ['y1'],
  );
  assert.deepEqual(searchIndex(db, 'otter'), []);
  db.close();
});

test('refresh: an edit in place that keeps the size, past the first 4 KiB and before the last bytes, is read again', async () => {
  const { dir, s3 } = projects();
  // a first prompt of 5,000 characters: the edited word is past the hashed head, and lines follow it
  writeFileSync(
    s3,
    jsonl(
      as('s3', [
        user('y0', null, `padding ${'x'.repeat(5000)}`, 0),
        assistant('b0', 'y0', text('noted'), 1, { mid: 'n0', stop: 'end_turn' }),
        user('y1', 'b0', 'the secret is otter', 2),
        assistant('b1', 'y1', text('understood, and this reply is long enough to be the last 64 bytes'), 3, {
          mid: 'n1',
          stop: 'end_turn',
        }),
      ]),
    ),
  );
  const { path } = await build(dir);
  const db = openIndexForWrite(path, () => assert.fail('the index is sound'));
  assert.deepEqual(
    searchIndex(db, 'otter').map((h) => h.uuid),
    ['y1'],
  );
  // masked with as many characters: the same size, the same first 4 KiB and last 64 bytes
  writeFileSync(s3, readFileSync(s3, 'utf8').replace('the secret is otter', 'the secret is *****'));
  const after = await refreshIndex(db, { projectsDir: dir });
  assert.deepEqual([after.reread, after.unchanged], [1, 3]);
  assert.deepEqual(searchIndex(db, 'otter'), []);
  // edited back with its mtime put back (`touch -r`): only the ctime says so, once recorded settled (as a refresh
  // 2 s after a write records it)
  const mtime = new Date('2026-03-05T00:00:00Z'); // a whole second: utimes puts it back exactly
  utimesSync(s3, mtime, mtime);
  await refreshIndex(db, { projectsDir: dir });
  db.run('UPDATE files SET ctime_ms = ? WHERE path = ?', [statSync(s3).ctimeMs, s3]);
  writeFileSync(s3, readFileSync(s3, 'utf8').replace('the secret is *****', 'the secret is otter'));
  utimesSync(s3, mtime, mtime);
  const back = await refreshIndex(db, { projectsDir: dir });
  assert.deepEqual([back.reread, back.unchanged], [1, 3]);
  assert.deepEqual(
    searchIndex(db, 'otter').map((h) => h.uuid),
    ['y1'],
  );
  db.close();
});

test('rebuild: deleting the index and building it again gives the same rows and hits', async () => {
  const { dir } = projects();
  const first = dumpIndex((await build(dir)).path);
  assert.equal(dumpIndex((await build(dir)).path), first);
  assert.ok(first.includes('pelican'));
  // a listing of each session file (not of the nested subagent's), the usage of every file
  assert.deepEqual([first.match(/"listing_json"/g)?.length, first.match(/"usage_json"/g)?.length], [3, 4]);
  // parsed (and listed, and usage read) in worker threads or in this one: the same rows
  assert.equal(dumpIndex((await build(dir, undefined, 0)).path), first);
  assert.equal(dumpIndex((await build(dir, undefined, 1)).path), first);
  assert.equal(dumpIndex((await build(dir, undefined, 2)).path), first);
});

test('an append, with kept watchers or in a new process, gives the rows of a full rebuild', async () => {
  const { dir, s1, s2 } = projects();
  const watchers: WatcherCache = new Map();
  const kept = await build(dir, watchers);
  const fresh = await build(dir);
  appendFileSync(s1, jsonl(as('s1', [user('u9', 'a3', 'and the okapi', 30)])));
  appendFileSync(
    s1,
    jsonl(as('s1', [assistant('a9', 'u9', text('An okapi, noted.'), 31, { mid: 'm9', stop: 'end_turn' })])),
  );
  appendFileSync(s2, jsonl(as('s2', [user('v4', 'w3', 'now the narwhal', 20)])));
  for (const [path, options] of [
    [kept.path, { watchers }],
    [fresh.path, {}],
  ] as const) {
    const db = openIndexForWrite(path, () => assert.fail('the index is sound'));
    const report = await refreshIndex(db, { projectsDir: dir, ...options });
    assert.deepEqual([report.appended, report.unchanged], [2, 2]);
    db.close();
  }
  const queries = ['okapi', 'narwhal', 'zebra'];
  const rebuilt = dumpIndex((await build(dir)).path, queries);
  assert.equal(dumpIndex(kept.path, queries), rebuilt);
  assert.equal(dumpIndex(fresh.path, queries), rebuilt);
  assert.ok(rebuilt.includes('noted'));
});

test("kept watchers: an append keeps the rewound lines' blocks as they are; a new rewind writes them again", async () => {
  const { dir, s2 } = projects();
  const watchers: WatcherCache = new Map();
  const kept = await build(dir, watchers);
  // a block's id follows its time (a rewrite gives it the same one): a mark in the row says if it was written again
  const walrus = (): unknown[] => {
    const db = reader(kept.path);
    const lengths = db.all("SELECT text_length FROM blocks WHERE text LIKE '%walrus%'").map((r) => r['text_length']);
    db.close();
    return lengths;
  };
  const mark = openDatabase(kept.path);
  mark.run("UPDATE blocks SET text_length = -1 WHERE text LIKE '%walrus%'");
  mark.close();
  const refresh = async (): Promise<void> => {
    const db = openIndexForWrite(kept.path, () => assert.fail('the index is sound'));
    await refreshIndex(db, { projectsDir: dir, watchers });
    db.close();
  };
  const before = walrus();
  assert.deepEqual(before, [-1]);
  appendFileSync(s2, jsonl(as('s2', [user('v4', 'w3', 'now the narwhal', 20)])));
  await refresh();
  // the same row: neither deleted nor written again (nor indexed again)
  assert.deepEqual(walrus(), before);
  // a rewind to w1: v3, w3 and v4 are rewound too, the blocks of no turn are written again
  appendFileSync(s2, jsonl(as('s2', [user('v5', 'w1', 'a third idea', 30)])));
  await refresh();
  assert.equal(walrus().length, 1);
  assert.notDeepEqual(walrus(), before);
  const queries = ['walrus', 'narwhal', 'third'];
  assert.equal(dumpIndex(kept.path, queries), dumpIndex((await build(dir)).path, queries));
});

test('a corrupt or foreign index.db is recreated with INDEX_RECREATED, never read', async () => {
  const { dir } = projects();
  for (const make of [
    (p: string) => writeFileSync(p, 'x'.repeat(8192)),
    (p: string) => openDatabase(p).exec('CREATE TABLE sessions (key TEXT); INSERT INTO sessions VALUES (1)'),
  ]) {
    const home = tempDir('romp-home-');
    make(indexPath(home));
    const codes: string[] = [];
    const report = await updateIndex(indexPath(home), { projectsDir: dir, onDiagnostic: (d) => codes.push(d.code) });
    assert.deepEqual(codes, ['INDEX_RECREATED']);
    assert.equal(report?.added, 4);
    assert.equal(sessionCount(indexPath(home)), 4);
  }
});

test('two romp index at once: both finish, the index is whole', async () => {
  const { dir } = projects();
  const home = tempDir('romp-home-');
  const bin = fileURLToPath(new URL('../../src/cli/bin.js', import.meta.url));
  const run = (): Promise<{ stdout: string }> =>
    promisify(execFile)(process.execPath, [bin, 'index', '--projects', dir, '--json', '--no-progress'], {
      env: { ...process.env, ROMP_HOME: home },
    });
  const [a, b] = await Promise.all([run(), run()]);
  const reports = [a, b].map((r) => JSON.parse(r.stdout) as { added: number; unchanged: number });
  // one built it; the other waited for the lock and found nothing to do
  assert.deepEqual(
    reports.map((r) => r.added + r.unchanged),
    [4, 4],
  );
  assert.deepEqual(reports.map((r) => r.added).sort(), [0, 4]);
  assert.equal(sessionCount(indexPath(home)), 4);
});

test('romp search, romp sql: hits and rows as JSON; sql refuses to write', async () => {
  const { dir } = projects();
  const home = tempDir('romp-home-');
  const search = await runCli([
    'search',
    'zebra',
    'missing',
    '--projects',
    dir,
    '--romp-home',
    home,
    '--json',
    '--no-progress',
  ]);
  assert.equal(search.code, 0, search.err);
  const hits = JSON.parse(search.out) as Array<Record<string, unknown>>;
  assert.deepEqual(
    hits.map((h) => [
      h['session_id'],
      h['uuid'],
      h['turn'],
      h['author'],
      h['title'],
      h['first_prompt'],
      h['snippet'],
      h['matches'],
    ]),
    [
      [
        's1',
        'r1',
        1,
        null,
        '',
        // untitled: its first prompt names it, as in romp ls
        'why does the flamingo build fail',
        'error: zebra missing',
        [
          [7, 12],
          [13, 20],
        ],
      ],
    ],
  );
  const plain = await runCli([
    'search',
    'flamingo',
    '--projects',
    dir,
    '--romp-home',
    home,
    '--no-refresh',
    '--author',
    'human',
  ]);
  assert.match(
    plain.out,
    /turn 1 {2}human {2}\/work\/demo {2}why does the flamingo build fail\n {2}why does the «flamingo» build fail\n {2}romp show .*s1\.jsonl --turn 1 {3}claude --resume s1\n/,
  );
  // on a 40-column terminal each line is cut to 39 but the two commands, on lines of their own, whole: a command
  // cut to the width would not run
  const narrow = await runCli(
    ['search', 'flamingo', '--projects', dir, '--romp-home', home, '--no-refresh', '--author', 'human'],
    40,
  );
  const lines = narrow.out.trimEnd().split('\n');
  // under the count of hits and the zone
  assert.deepEqual(
    [lines.length, lines.slice(0, 3).filter((l) => [...l].length > 39), lines[0], lines[4]],
    [5, [], `1 hit · times in ${timeFormat().zone}`, '  claude --resume s1'],
  );
  assert.match(lines[3] ?? '', /^ {2}romp show \/\S+\/s1\.jsonl --turn 1$/);
  assert.ok([...(lines[3] ?? '')].length > 39);
  const sql = await runCli([
    'sql',
    "SELECT key, turns FROM sessions WHERE key LIKE 's1%' ORDER BY key",
    '--romp-home',
    home,
    '--json',
  ]);
  assert.deepEqual(JSON.parse(sql.out), [
    { key: 's1', turns: 1 },
    { key: 's1/agent-x1', turns: 1 },
  ]);
  // the query's words unquoted, as a shell splits them, are one query
  const words = "SELECT key, turns FROM sessions WHERE key LIKE 's1%' ORDER BY key".split(' ');
  assert.deepEqual(
    JSON.parse((await runCli(['sql', ...words, '--romp-home', home, '--json'])).out),
    JSON.parse(sql.out),
  );
  const write = await runCli(['sql', 'DELETE FROM sessions', '--romp-home', home]);
  assert.equal(write.code, 2);
  assert.match(write.err, /read-only/);
  // libsql's fileio writefile() writes past PRAGMA query_only: refused, however its name is spelt
  const outside = join(home, 'written.txt');
  for (const call of ['writefile', '"writefile"', 'WriteFile']) {
    const file = await runCli(['sql', `SELECT ${call}('${outside}', 'x') AS n`, '--romp-home', home]);
    assert.equal(file.code, 2, call);
    assert.match(file.err, /read-only/);
  }
  assert.equal(existsSync(outside), false);
  // a day that is none (month 13, 30 February) is refused, not rolled over into the next month
  for (const day of ['2026-13-45', '20250230']) {
    const bad = await runCli(['search', 'zebra', '--since', day, '--romp-home', home, '--no-refresh']);
    assert.equal(bad.code, 2, day);
    assert.equal(bad.err, `romp: --since ${day}: give a day as YYYY-MM-DD or YYYYMMDD\n`);
  }
  // days the wrong way round are said to be, not answered with "no hits"; one day given twice is that day
  const reversed = await runCli([
    'search',
    'zebra',
    '--since',
    '2025-07-20',
    '--until',
    '2025-07-01',
    '--romp-home',
    home,
  ]);
  assert.deepEqual(
    [reversed.code, reversed.err],
    [2, 'romp: --since 2025-07-20 is after --until 2025-07-01: no day is in both\n'],
  );
  const oneDay = ['--since', '2025-07-01', '--until', '2025-07-01', '--no-refresh', '--json'];
  assert.equal((await runCli(['search', 'zebra', ...oneDay, '--romp-home', home])).code, 0);
  // a projects folder that cannot be read is an error, not an empty folder that would empty the index
  const missing = await runCli(['index', '--projects', join(dir, 'nope'), '--romp-home', home]);
  assert.equal(missing.code, 2);
  assert.match(missing.err, /nope: no such folder \(Claude Code.s projects folder/);
  assert.equal(sessionCount(indexPath(home)), 4);
});

test('romp sql: a table of more rows than one cli-table3 table draws is one table, its widths kept', async () => {
  const { dir } = projects();
  const home = tempDir('romp-home-');
  assert.equal((await runCli(['index', '--projects', dir, '--romp-home', home])).code, 0);
  // 10,000 rows a table: 10,001 rows are drawn as two, joined; ☕ and ⭐ are two columns wide to cli-table3
  const n = 10_001;
  const sql = `WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT ${n}) SELECT x, 'v' || x AS s, '☕⭐' AS w FROM c`;
  const { code, out } = await runCli(['sql', sql, '--romp-home', home]);
  assert.equal(code, 0);
  const lines = out.trimEnd().split('\n');
  // a top border, the header, then each row under a separator, the bottom border, the count
  assert.equal(lines.length, 3 + 2 * n + 1);
  const sep = '├───────┼────────┼──────┤';
  assert.deepEqual(lines.slice(0, 4), [
    '┌───────┬────────┬──────┐',
    '│ x     │ s      │ w    │',
    sep,
    '│ 1     │ v1     │ ☕⭐ │',
  ]);
  assert.deepEqual(lines.slice(2 * 10_000 + 1, 2 * 10_000 + 4), [
    '│ 10000 │ v10000 │ ☕⭐ │',
    sep,
    '│ 10001 │ v10001 │ ☕⭐ │',
  ]);
  assert.deepEqual(lines.slice(-2), ['└───────┴────────┴──────┘', `(${n} rows)`]);
  assert.equal(lines.filter((l) => l.startsWith('│ x ')).length, 1);
});

test('romp search of no word, spaces or control characters only, is a usage error, not a search for nothing', async () => {
  const { dir } = projects();
  const home = tempDir('romp-home-');
  for (const query of [' ', '\u0001', '\t\u0007 \u007f']) {
    const r = await runCli(['search', query, '--projects', dir, '--romp-home', home, '--no-progress']);
    assert.deepEqual([r.code, r.err], [2, 'romp: search for what? give one or more words\n'], JSON.stringify(query));
  }
});

test('romp index names the files it read whose lines could not be read, once, with where to see them', async () => {
  const { dir, s3 } = projects();
  const home = tempDir('romp-home-');
  const index = (...more: string[]): ReturnType<typeof runCli> =>
    runCli(['index', '--projects', dir, '--romp-home', home, '--no-progress', ...more]);
  const first = await index();
  assert.equal(first.code, 0);
  assert.equal(
    first.err,
    `romp: 1 transcript read has lines that could not be read, left out of the index (romp doctor FILE lists them):\n  ${s3}: 1 line (INVALID_JSON)\n`,
  );
  // nothing read again: nothing said again
  assert.equal((await index()).err, '');
  appendFileSync(s3, '\n{"also broken\n');
  const json = await index('--json');
  assert.equal(json.err, '');
  assert.deepEqual((JSON.parse(json.out) as { unreadLines: unknown }).unreadLines, [
    { path: s3, lines: 2, codes: ['INVALID_JSON'] },
  ]);
});

test('usage_facts count as romp usage does: a rewound branch and an in-file sidechain line are facts too', async () => {
  const dir = tempDir('romp-index-usage-');
  mkdirSync(join(dir, '-work-demo'));
  const file = join(dir, '-work-demo', 's4.jsonl');
  const usage = (output: number): Line => ({
    input_tokens: 10,
    output_tokens: output,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
  });
  writeFileSync(
    file,
    jsonl(
      as('s4', [
        user('p1', null, 'first try', 0),
        assistant('q1', 'p1', text('A dead end.'), 1, { mid: 'k1', stop: 'end_turn', usage: usage(7) }),
        user('p2', null, 'second try', 5),
        assistant('q2', 'p2', text('Kept.'), 6, { mid: 'k2', stop: 'end_turn', usage: usage(11) }),
        assistant('q3', 'q2', text('a side question'), 7, {
          mid: 'k3',
          stop: 'end_turn',
          usage: usage(13),
          extra: { isSidechain: true },
        }),
      ]),
    ),
  );
  const { path } = await build(dir);
  const db = reader(path);
  const facts = db
    .all(
      'SELECT message_id, output_tokens, turn_key IS NOT NULL AS on_turn, is_sidechain FROM usage_facts ORDER BY message_id',
    )
    .map((r) => ({ ...r }));
  // k1 hangs on the first, rewound root: no turn of the session holds it, yet it was paid for
  assert.deepEqual(facts, [
    { message_id: 'k1', output_tokens: 7, on_turn: 0, is_sidechain: 0 },
    { message_id: 'k2', output_tokens: 11, on_turn: 1, is_sidechain: 0 },
    { message_id: 'k3', output_tokens: 13, on_turn: 0, is_sidechain: 1 },
  ]);
  db.close();
});

test("index: a 2.0.x flat agent file no call names is its parent session's; a hit in it resumes the parent", async () => {
  const dir = tempDir('romp-projects-');
  const project = join(dir, '-work-app');
  mkdirSync(project);
  writeFileSync(join(project, 'p1.jsonl'), jsonl(as('p1', [user('u1', null, 'hello', 0)])));
  // its lines carry the parent's sessionId, as 2.0.28-2.1.1 wrote them beside the session; no Task call names it
  writeFileSync(
    join(project, 'agent-f1.jsonl'),
    jsonl(as('p1', [user('f1', null, 'look for the heron', 1, { isSidechain: true })])),
  );
  const db = reader((await build(dir)).path);
  assert.deepEqual(
    db.all("SELECT key, parent_key, parent_tool_use_id FROM sessions WHERE key LIKE 'p1/%'").map((r) => ({ ...r })),
    [{ key: 'p1/agent-f1', parent_key: 'p1', parent_tool_use_id: null }],
  );
  assert.deepEqual(
    searchIndex(db, 'heron').map((h) => [h.session_id, h.uuid, h.resume_id]),
    [['p1/agent-f1', 'f1', 'p1']],
  );
  db.close();
});

test('search: a hit in a subagent file whose parent session is not in the folder resumes that session by its id', async () => {
  const dir = tempDir('romp-projects-');
  const project = join(dir, '-work-app');
  mkdirSync(join(project, 'gone2', 'subagents'), { recursive: true });
  // a 2.0.x flat file naming a session whose transcript was deleted, and a 2.1.x one under a folder without its file
  writeFileSync(
    join(project, 'agent-o1.jsonl'),
    jsonl(as('gone1', [user('o1', null, 'where is the ibis', 1, { isSidechain: true })])),
  );
  writeFileSync(
    join(project, 'gone2', 'subagents', 'agent-o2.jsonl'),
    jsonl(as('gone2', [user('o2', null, 'where is the ibis now', 2, { isSidechain: true })])),
  );
  const db = reader((await build(dir)).path);
  // never the subagent file's own name: `claude --resume agent-o1` resumes nothing
  assert.deepEqual(
    searchIndex(db, 'ibis')
      .map((h) => [h.session_id, h.uuid, h.resume_id])
      .sort(),
    [
      ['gone1/agent-o1', 'o1', 'gone1'],
      ['gone2/agent-o2', 'o2', 'gone2'],
    ],
  );
  db.close();
});

test("search: a session whose id holds a '/' resumes by its file, not by the id's first part", async () => {
  const dir = tempDir('romp-index-slash-');
  mkdirSync(join(dir, '-work-demo'), { recursive: true });
  writeFileSync(
    join(dir, '-work-demo', 's9.jsonl'),
    jsonl(as('team/s9', [user('z1', null, 'where is the capybara', 0)])),
  );
  const { path } = await build(dir);
  const db = reader(path);
  assert.deepEqual(
    searchIndex(db, 'capybara').map((h) => [h.session_id, h.resume_id]),
    [['team/s9', 's9']],
  );
  db.close();
});

test('refresh: the stamped tables say when they are in step, and only then is a refresh joined over what it wrote', async () => {
  const { dir, s1, s2 } = projects();
  // settled files: a refresh with nothing changed writes no files row (a ctime too new is stamped again)
  await new Promise((resolve) => setTimeout(resolve, SETTLED_MS + 100));
  const { path } = await build(dir);
  const db = openIndexForWrite(path, () => assert.fail('the index is sound'));
  const flags = (): string[] =>
    db.all("SELECT key FROM meta WHERE key LIKE 'in_step:%' ORDER BY key").map((r) => String(r['key']));
  const listed = (): string[] => db.all('SELECT path FROM listings ORDER BY path').map((r) => String(r['path']));
  assert.deepEqual(flags(), ['in_step:listings', 'in_step:usage_files']);
  const all = listed();
  assert.deepEqual(all, [s1, s2, join(dir, '-work-demo', 's3.jsonl')]);
  // a refresh that could not store s2's listing (its file written while it was read) leaves no flag: the next one,
  // with nothing changed, finds the row missing by its join over every file
  db.run('DELETE FROM listings WHERE path = ?', [s2]);
  db.run("DELETE FROM meta WHERE key = 'in_step:listings'");
  await refreshIndex(db, { projectsDir: dir });
  assert.deepEqual([listed(), flags()], [all, ['in_step:listings', 'in_step:usage_files']]);
  // with the flag, a refresh with nothing changed joins over no file: a row gone behind its back stays gone (nothing
  // but a refresh writes these tables) until its file changes
  db.run('DELETE FROM listings WHERE path = ?', [s2]);
  await refreshIndex(db, { projectsDir: dir });
  assert.deepEqual(listed(), [s1, join(dir, '-work-demo', 's3.jsonl')]);
  appendFileSync(s2, jsonl(as('s2', [user('q9', 'a2', 'one more', 40)])));
  await refreshIndex(db, { projectsDir: dir });
  assert.deepEqual(listed(), all);
  db.close();
});

test('refreshStamped: a file written while it is read keeps no row, and the table is no longer said in step', async () => {
  const { dir, s1 } = projects();
  const { path } = await build(dir);
  const db = openIndexForWrite(path, () => assert.fail('the index is sound'));
  db.run('DELETE FROM listings WHERE path = ?', [s1]);
  const stamps = new Map([[s1, (await stampFile(s1)) as FileStamp]]);
  const read = async (): Promise<string> => {
    appendFileSync(s1, jsonl(as('s1', [user('w9', 'a3', 'written meanwhile', 50)])));
    return '{}';
  };
  await refreshStamped(
    db,
    { table: 'listings', column: 'listing_json' },
    () => true,
    stamps,
    read,
    new Map(),
    new Set([s1]),
  );
  assert.deepEqual(db.all('SELECT path FROM listings WHERE path = ?', [s1]), []);
  assert.deepEqual(db.all("SELECT key FROM meta WHERE key = 'in_step:listings'"), []);
  db.close();
});

test('a page damaged in the middle of index.db: one line, exit 2, and the next romp index builds it again', async () => {
  const { dir } = projects();
  const home = tempDir('romp-home-');
  const opts = ['--projects', dir, '--romp-home', home, '--no-progress'];
  assert.equal((await runCli(['index', ...opts])).code, 0);
  const path = indexPath(home);
  // the full-text index's first page, which opening the index and a refresh with nothing changed never read
  const db = openDatabase(path);
  db.exec('PRAGMA wal_checkpoint(TRUNCATE)'); // every page in the file itself
  const root = Number(db.all("SELECT rootpage FROM sqlite_master WHERE name = 'blocks_fts_data'")[0]?.['rootpage']);
  const size = Number(db.all('PRAGMA page_size')[0]?.['page_size']);
  db.close();
  const bytes = readFileSync(path);
  bytes.fill(0xff, (root - 1) * size, root * size);
  writeFileSync(path, bytes);
  const search = await runCli(['search', 'zebra', '--no-refresh', ...opts]);
  // SQLite's words for it depend on the page (here the full-text index's: "vtable constructor failed: blocks_fts")
  assert.equal(search.code, 2);
  const why = new RegExp(
    `^romp: ${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is damaged \\((.+)\\): the next romp index builds it again\n$`,
  ).exec(search.err)?.[1];
  assert.ok(why !== undefined, search.err);
  // refused, not read, until then
  const sql = await runCli(['sql', 'SELECT count(*) FROM sessions', '--romp-home', home]);
  assert.equal(sql.code, 2);
  assert.ok(sql.err.includes(`the index is damaged (${why}): the next romp index builds it again`), sql.err);
  const again = await runCli(['index', ...opts, '--json']);
  assert.equal(again.code, 0);
  assert.ok(again.err.includes(`damaged (${why}): deleted and built again`), again.err);
  const found = await runCli(['search', 'zebra', '--no-refresh', '--json', ...opts]);
  assert.equal(found.code, 0, found.err);
  assert.ok((JSON.parse(found.out) as unknown[]).length > 0);
});

test('search: a hit is titled as romp ls titles its transcript, by a summary of a leaf the file does not hold too', async () => {
  const dir = tempDir('romp-index-');
  mkdirSync(join(dir, '-work-birds'));
  const file = join(dir, '-work-birds', 's9.jsonl');
  writeFileSync(
    file,
    jsonl([
      // Claude Code writes a resumed session's summaries of the conversation it came from: their leaf is elsewhere
      { type: 'summary', summary: 'Pelican census', leafUuid: 'a-leaf-in-another-file' },
      ...as('s9', [
        user('p1', null, 'count the pelicans', 0),
        assistant('p2', 'p1', text('Eleven pelicans.'), 1, { mid: 'mp', stop: 'end_turn' }),
      ]),
    ]),
  );
  const home = tempDir('romp-home-');
  const opts = ['--projects', dir, '--romp-home', home, '--json', '--no-progress'];
  const search = await runCli(['search', 'pelicans', ...opts]);
  assert.equal(search.code, 0, search.err);
  const hits = JSON.parse(search.out) as Array<Record<string, unknown>>;
  assert.deepEqual(
    hits.map((h) => [h['uuid'], h['title'], h['first_prompt']]),
    [
      ['p1', 'Pelican census', ''],
      ['p2', 'Pelican census', ''],
    ],
  );
  const ls = JSON.parse((await runCli(['ls', '--projects', dir, '--json', '--no-index'])).out) as Array<{
    title: string;
  }>;
  assert.deepEqual(
    ls.map((s) => s.title),
    ['Pelican census'],
  );
});
