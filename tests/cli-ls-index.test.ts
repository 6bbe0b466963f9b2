import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { listClaudeSessions } from '../src/discover/list-claude-sessions.ts';
import { openDatabase } from '../src/index-db/database.ts';
import { storedListings } from '../src/index-db/listings.ts';
import { openIndexForRead } from '../src/index-db/open-index.ts';
import { PARSER_VERSION } from '../src/index-db/parser-version.ts';
import { CORPUS_TRANSCRIPTS, corpusPresent } from './helpers/corpus.ts';
import { runCli } from './helpers/run-cli.ts';
import { tempDir } from './helpers/temp-dir.ts';
import { assistant, text, user } from './helpers/transcript.ts';

const line = (l: object): string => `${JSON.stringify(l)}\n`;

/** s1 (a prompt, a nested subagent), its flat 2.0.x subagent agent-f.jsonl, s2 (no time: its mtime counts). */
function projects(): { root: string; s1: string; s2: string } {
  const root = tempDir('romp-ls-index-');
  const project = join(root, '-work-app');
  mkdirSync(join(project, 's1', 'subagents'), { recursive: true });
  const s1 = join(project, 's1.jsonl');
  writeFileSync(
    s1,
    [
      user('u1', null, 'fix the parser', 1, { cwd: '/work/app', sessionId: 's1', gitBranch: 'main' }),
      assistant('a1', 'u1', text('Fixed.'), 2, { mid: 'm1', stop: 'end_turn', extra: { sessionId: 's1' } }),
    ]
      .map(line)
      .join(''),
  );
  writeFileSync(
    join(project, 's1', 'subagents', 'agent-n.jsonl'),
    line(user('x1', null, 'look', 3, { sessionId: 's1', isSidechain: true })),
  );
  writeFileSync(
    join(project, 'agent-f.jsonl'),
    line(user('f1', null, 'flat', 4, { sessionId: 's1', isSidechain: true })),
  );
  const s2 = join(project, 's2.jsonl');
  writeFileSync(s2, line({ type: 'summary', summary: 'no time here', leafUuid: 'x' }));
  utimesSync(s2, new Date('2026-03-02T00:00:00Z'), new Date('2026-03-02T00:00:00Z'));
  return { root, s1, s2 };
}

/** Where each file's listing came from, with the index of `home`. */
async function sources(root: string, home: string): Promise<Record<string, string>> {
  const db = openIndexForRead(join(home, 'index.db'));
  if (typeof db === 'string') assert.fail(db);
  const from: Record<string, string> = {};
  try {
    await listClaudeSessions({
      projectsDir: root,
      stored: storedListings(db),
      onListed: (path, how) => (from[path.slice(root.length + 1)] = how),
    });
  } finally {
    db.close();
  }
  return from;
}

/** `romp ls` with the index, and with --no-index: human and JSON output. */
async function both(root: string, home: string): Promise<string[]> {
  const outputs: string[] = [];
  for (const json of [[], ['--json']]) {
    const indexed = await runCli(['ls', '--projects', root, '--romp-home', home, '--timezone', 'UTC', ...json], 120);
    const read = await runCli(['ls', '--projects', root, '--no-index', '--timezone', 'UTC', ...json], 120);
    assert.equal(indexed.code, 0, indexed.err);
    assert.equal(indexed.out, read.out);
    assert.equal(indexed.err, read.err);
    outputs.push(indexed.out);
  }
  return outputs;
}

test('romp ls from the index: fresh files are not read, a changed or new one is, the output is the same', async () => {
  const { root, s1, s2 } = projects();
  const home = tempDir('romp-home-');
  const index = await runCli(['index', '--projects', root, '--romp-home', home, '--no-progress']);
  assert.equal(index.code, 0, index.err);
  // the nested subagent is only named by ls: it has no listing
  assert.deepEqual(await sources(root, home), {
    '-work-app/s1.jsonl': 'stored',
    '-work-app/s2.jsonl': 'stored',
    '-work-app/agent-f.jsonl': 'stored',
  });
  const [table, listed] = await both(root, home);
  assert.deepEqual(
    (JSON.parse(listed as string) as Array<{ id: string; gitBranch?: string }>).map((s) => [s.id, s.gitBranch]),
    [
      ['s2', undefined],
      ['s1', 'main'],
    ],
  );
  assert.match(table as string, /\n2026-03-02 00:00\* +0 +-work-app +s2 +no time here\n/);
  assert.match(table as string, /\n2026-03-01 10:00 +1 +\+2 +\/work\/app +s1 +fix the parser\n/);

  // an append: that file is read again (a second prompt), the other stays the index's
  appendFileSync(
    s1,
    line(user('u2', 'a1', 'and the lexer', 5, { cwd: '/work/app', sessionId: 's1', gitBranch: 'fix/lexer' })),
  );
  assert.deepEqual(await sources(root, home), {
    '-work-app/s1.jsonl': 'read',
    '-work-app/s2.jsonl': 'stored',
    '-work-app/agent-f.jsonl': 'stored',
  });
  const [grown, json] = await both(root, home);
  assert.match(grown as string, /\n2026-03-01 10:00 +2 +\+2 +\/work\/app +s1 +fix the parser\n/);
  const after = (JSON.parse(json as string) as Array<{ prompts: number; gitBranch?: string }>)[1];
  assert.deepEqual([after?.prompts, after?.gitBranch], [2, 'fix/lexer']);

  // the same bytes with another mtime (the index never trusts a listing on content alone), a new file
  utimesSync(s2, new Date('2026-03-03T00:00:00Z'), new Date('2026-03-03T00:00:00Z'));
  writeFileSync(join(root, '-work-app', 's3.jsonl'), line(user('v1', null, 'hello', 9, { sessionId: 's3' })));
  assert.deepEqual(await sources(root, home), {
    '-work-app/s1.jsonl': 'read',
    '-work-app/s2.jsonl': 'read',
    '-work-app/s3.jsonl': 'read',
    '-work-app/agent-f.jsonl': 'stored',
  });
  await both(root, home);

  // a refresh takes the changes in: every listing is the index's again
  assert.equal((await runCli(['index', '--projects', root, '--romp-home', home, '--no-progress'])).code, 0);
  assert.deepEqual(Object.values(await sources(root, home)), ['stored', 'stored', 'stored', 'stored']);
  await both(root, home);
});

test('romp ls over the corpus: with the index and without, byte for byte', { skip: !corpusPresent }, async () => {
  const home = tempDir('romp-home-');
  const index = await runCli(['index', '--projects', CORPUS_TRANSCRIPTS, '--romp-home', home, '--no-progress']);
  assert.equal(index.code, 0, index.err);
  const from = Object.values(await sources(CORPUS_TRANSCRIPTS, home));
  assert.ok(from.length >= 10, `${from.length} listed`);
  assert.deepEqual(new Set(from), new Set(['stored']));
  await both(CORPUS_TRANSCRIPTS, home);
});

test('a listing or usage row another romp read is read again, for the same bytes, and then stored anew', async () => {
  const { root } = projects();
  const home = tempDir('romp-home-');
  const index = (): Promise<unknown> => runCli(['index', '--projects', root, '--romp-home', home, '--no-progress']);
  await index();
  const db = openDatabase(join(home, 'index.db'));
  const versions = (): unknown[] =>
    db
      .all(
        `SELECT parser_version FROM listings WHERE path LIKE '%s2.jsonl' UNION ALL
       SELECT parser_version FROM usage_files WHERE path LIKE '%s2.jsonl'`,
      )
      .map((r) => r['parser_version']);
  assert.deepEqual(versions(), [PARSER_VERSION, PARSER_VERSION]);
  // as an older romp would have left them: same stamp, other reader
  db.run(`UPDATE listings SET parser_version = '0.0.1/1' WHERE path LIKE '%s2.jsonl'`);
  db.run(`UPDATE usage_files SET parser_version = '0.0.1/1' WHERE path LIKE '%s2.jsonl'`);
  assert.equal((await sources(root, home))['-work-app/s2.jsonl'], 'read');
  await index();
  assert.deepEqual(versions(), [PARSER_VERSION, PARSER_VERSION]);
  db.close();
  assert.equal((await sources(root, home))['-work-app/s2.jsonl'], 'stored');
});

test('a listing whose file has its recorded stat and a settled ctime is taken on that stat, unopened', async () => {
  const { root, s1 } = projects();
  const home = tempDir('romp-home-');
  assert.equal((await runCli(['index', '--projects', root, '--romp-home', home, '--no-progress'])).code, 0);
  const db = openDatabase(join(home, 'index.db'));
  // written just now, so its ctime was not settled when stamped (-1): recorded as a later refresh records it
  db.run('UPDATE files SET ctime_ms = ? WHERE path = ?', [statSync(s1).ctimeMs, s1]);
  // hashes no read of the file can give: only a listing taken on its stat alone is still the index's
  db.run(`UPDATE files SET head_hash = 'not read' WHERE path = ?`, [s1]);
  db.run(`UPDATE listings SET head_hash = 'not read' WHERE path = ?`, [s1]);
  assert.equal((await sources(root, home))['-work-app/s1.jsonl'], 'stored');
  // the same size and mtime, other bytes: the ctime moved, so the file is stamped, and read
  const { mtime } = statSync(s1);
  writeFileSync(s1, readFileSync(s1, 'utf8').replace('fix the parser', 'fix the lexer!'));
  utimesSync(s1, mtime, mtime);
  assert.equal((await sources(root, home))['-work-app/s1.jsonl'], 'read');
  db.close();
  const [table] = await both(root, home);
  assert.match(table as string, / s1 +fix the lexer!\n/);
});
