import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { openDatabase } from '../../src/index-db/database.ts';
import { openIndexForRead, openIndexForWrite } from '../../src/index-db/open-index.ts';
import { PARSER_VERSION } from '../../src/index-db/parser-version.ts';
import { refreshIndex } from '../../src/index-db/refresh-index.ts';
import { searchIndex } from '../../src/index-db/search-index.ts';
import { SCHEMA_VERSION } from '../../src/index-db/schema.ts';
import { storedParts } from '../../src/index-db/usage-files.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { assistant, T0, text, user } from '../helpers/transcript.ts';

/** One project: s1 moves from branch `main` to `fix/otter` (its last line naming one); s2 names none. */
function projects(): string {
  const dir = tempDir('romp-migrate-');
  const project = join(dir, '-work-demo');
  mkdirSync(project, { recursive: true });
  const lines = (sessionId: string, branches: Array<string | undefined>): string =>
    [
      user('u1', null, 'hello otter', 0),
      assistant('a1', 'u1', text('Hello.'), 1, { mid: 'm1', stop: 'end_turn' }),
      user('u2', 'a1', 'now the fix', 2),
      assistant('a2', 'u2', text('Fixed.'), 3, { mid: 'm2', stop: 'end_turn' }),
    ]
      .map((l, i) => ({
        ...l,
        sessionId,
        ...(branches[i] === undefined ? {} : { gitBranch: branches[i] }),
      }))
      .map((l) => JSON.stringify(l))
      .join('\n') + '\n';
  writeFileSync(join(project, 's1.jsonl'), lines('s1', ['main', 'main', 'fix/otter', undefined]));
  writeFileSync(join(project, 's2.jsonl'), lines('s2', []));
  return dir;
}

function branches(path: string): unknown {
  const db = openIndexForRead(path);
  if (typeof db === 'string') assert.fail(db);
  try {
    return db.all('SELECT key, git_branch FROM sessions ORDER BY key').map((r) => ({ ...r }));
  } finally {
    db.close();
  }
}

test('sessions.git_branch: the last gitBranch on the path, null when no line names one', async () => {
  const dir = projects();
  const path = join(tempDir('romp-home-'), 'index.db');
  const db = openIndexForWrite(path, () => assert.fail('no diagnostic for a new index'));
  await refreshIndex(db, { projectsDir: dir });
  db.close();
  assert.deepEqual(branches(path), [
    { key: 's1', git_branch: 'fix/otter' },
    { key: 's2', git_branch: null },
  ]);
});

/** What version 5 added: which romp read a stamped row. */
const UNSTAMPED_VERSION =
  'ALTER TABLE listings DROP COLUMN parser_version; ALTER TABLE usage_files DROP COLUMN parser_version';

/** What version 7 added: the files' ctime, the stamp indexes. */
const STATLESS_VERSION =
  'DROP INDEX listings_stamp; DROP INDEX usage_files_stamp; ALTER TABLE files DROP COLUMN ctime_ms';

/** What version 8 added: the usage groups in parts (a fresh build has one per file), `usage_json` holding `next`. */
const PARTLESS_VERSION = `UPDATE usage_files SET usage_json = json_set(
    (SELECT p.usage_json FROM usage_parts p WHERE p.path = usage_files.path AND p.part = 0),
    '$.next', json_extract(usage_json, '$.next'));
  DROP TABLE usage_parts`;

/**
 * An index of `dir` made to look as an older romp wrote it: `older` (SQL) undoes what came since version 8 (what came
 * with versions 7 and 8 is undone here for an older version), and
 * `meta.schema_version` says `version`.
 */
async function olderIndex(dir: string, older: string, version: number): Promise<string> {
  const path = join(tempDir('romp-home-'), 'index.db');
  const db = openIndexForWrite(path, () => assert.fail('no diagnostic for a new index'));
  await refreshIndex(db, { projectsDir: dir });
  db.close();
  const old = openDatabase(path);
  old.exec(
    `${version < 8 ? `${PARTLESS_VERSION};` : ''} ${version < 7 ? `${STATLESS_VERSION};` : ''} ${older}; UPDATE meta SET value = '${version}' WHERE key = 'schema_version'`,
  );
  old.close();
  assert.equal(openIndexForRead(path), `schema version ${version}, this romp reads ${SCHEMA_VERSION}`);
  return path;
}

test('a version 1 index is migrated in place (to 2, then 3), and the next refresh fills git_branch', async () => {
  const dir = projects();
  // what romp 1's schema wrote: no git_branch column, no listings, no usage_files
  const path = await olderIndex(
    dir,
    'ALTER TABLE sessions DROP COLUMN git_branch; DROP TABLE listings; DROP TABLE usage_files',
    1,
  );

  const migrated = openIndexForWrite(path, (d) => assert.fail(`migrated, not recreated: ${d.message}`));
  const version = migrated.all("SELECT value FROM meta WHERE key = 'schema_version'")[0]?.['value'];
  assert.equal(version, String(SCHEMA_VERSION));
  // the rows are kept (migrated, not rebuilt), their branch not known yet
  assert.deepEqual(
    migrated.all('SELECT key, git_branch FROM sessions ORDER BY key').map((r) => ({ ...r })),
    [
      { key: 's1', git_branch: null },
      { key: 's2', git_branch: null },
    ],
  );
  assert.equal(migrated.all('SELECT count(*) AS n FROM listings')[0]?.['n'], 0);
  const report = await refreshIndex(migrated, { projectsDir: dir });
  assert.equal(report.reread, 2, 'every file is read again once after the migration');
  assert.deepEqual(
    migrated
      .all("SELECT path, json_extract(listing_json, '$.prompts') AS prompts FROM listings ORDER BY path")
      .map((r) => [String(r['path']).slice(dir.length), r['prompts']]),
    [
      ['/-work-demo/s1.jsonl', 2],
      ['/-work-demo/s2.jsonl', 2],
    ],
  );
  migrated.close();
  assert.deepEqual(branches(path), [
    { key: 's1', git_branch: 'fix/otter' },
    { key: 's2', git_branch: null },
  ]);
});

test('a version 2 index is migrated to version 3, and the next refresh fills usage_files without parsing', async () => {
  const dir = projects();
  // what romp 2's schema wrote: no usage_files
  const path = await olderIndex(dir, `${UNSTAMPED_VERSION}; DROP TABLE usage_files`, 2);

  const migrated = openIndexForWrite(path, (d) => assert.fail(`migrated, not recreated: ${d.message}`));
  assert.equal(migrated.all('SELECT count(*) AS n FROM usage_files')[0]?.['n'], 0);
  assert.equal(migrated.all('SELECT count(*) AS n FROM sessions')[0]?.['n'], 2, 'the rows are kept');
  const report = await refreshIndex(migrated, { projectsDir: dir });
  assert.deepEqual([report.unchanged, report.reread, report.bytesRead], [2, 0, 0], 'no file is parsed again');
  // each session: m1 and m2, 10 input tokens each (the fixture builder's usage)
  assert.deepEqual(
    migrated
      .all(
        "SELECT f.path, json_array_length(p.usage_json, '$.groups') AS responses, json_extract(p.usage_json, '$.groups[0][1].usage.input_tokens') AS input FROM usage_files f JOIN usage_parts p ON p.path = f.path ORDER BY f.path",
      )
      .map((r) => [String(r['path']).slice(dir.length), r['responses'], r['input']]),
    [
      ['/-work-demo/s1.jsonl', 2, 10],
      ['/-work-demo/s2.jsonl', 2, 10],
    ],
  );
  migrated.close();
});

test('a version 3 index is migrated to version 4: trigram index and keyed tables made again in SQLite, no file read', async () => {
  const dir = projects();
  // what romp 3's schema wrote: a trigram index over every block's whole text, with column sizes
  const path = await olderIndex(
    dir,
    `${UNSTAMPED_VERSION}; DROP TABLE blocks_trigram; DROP VIEW blocks_search;
    CREATE VIEW blocks_search AS SELECT id, CASE WHEN role = 'typed' THEN text ELSE '' END AS typed,
      CASE WHEN role IN ('assistant', 'thinking') THEN text ELSE '' END AS assistant,
      CASE WHEN role IN ('typed', 'assistant', 'thinking') THEN '' ELSE text END AS tools, text FROM blocks;
    CREATE VIRTUAL TABLE blocks_trigram USING fts5(text, content='blocks_search', content_rowid='id', tokenize='trigram', detail='none');
    INSERT INTO blocks_trigram(blocks_trigram) VALUES ('rebuild');
    CREATE TABLE atoms_v3 AS SELECT * FROM atoms; DROP TABLE atoms; ALTER TABLE atoms_v3 RENAME TO atoms`,
    3,
  );
  const migrated = openIndexForWrite(path, (d) => assert.fail(`migrated, not recreated: ${d.message}`));
  assert.match(
    String(migrated.all("SELECT sql FROM sqlite_master WHERE name = 'blocks_trigram'")[0]?.['sql']),
    /fts5\(trigram_text, .*columnsize=0\)/,
  );
  // the keyed tables are stored in their key's b-tree, their rows kept (2 sessions of 4 atoms)
  assert.match(
    String(migrated.all("SELECT sql FROM sqlite_master WHERE name = 'atoms'")[0]?.['sql']),
    /WITHOUT ROWID$/,
  );
  assert.equal(migrated.all('SELECT count(*) AS n FROM atoms')[0]?.['n'], 8);
  // "tte" is a part of "otter": found through the trigram index made again, in both sessions' first prompt
  assert.deepEqual(
    // both at the same time: no order between them
    searchIndex(migrated, 'tte')
      .map((h) => [h.session_id, h.uuid, h.matched])
      .sort(),
    [
      ['s1', 'u1', 'substring'],
      ['s2', 'u1', 'substring'],
    ],
  );
  const report = await refreshIndex(migrated, { projectsDir: dir });
  assert.deepEqual([report.unchanged, report.bytesRead], [2, 0], 'no file is read again');
  migrated.close();
});

test('a version 4 index is migrated to version 5: its listings and usage rows are read again, no file parsed', async () => {
  const dir = projects();
  const path = await olderIndex(dir, UNSTAMPED_VERSION, 4);
  const migrated = openIndexForWrite(path, (d) => assert.fail(`migrated, not recreated: ${d.message}`));
  const versions = (): unknown[] =>
    migrated
      .all(
        'SELECT parser_version FROM listings UNION ALL SELECT parser_version FROM usage_files ORDER BY parser_version',
      )
      .map((r) => r['parser_version']);
  // rows of before: read by no romp this one knows
  assert.deepEqual(versions(), ['', '', '', '']);
  const report = await refreshIndex(migrated, { projectsDir: dir });
  assert.deepEqual([report.unchanged, report.reread, report.bytesRead], [2, 0, 0], 'no file is parsed again');
  assert.deepEqual(versions(), [PARSER_VERSION, PARSER_VERSION, PARSER_VERSION, PARSER_VERSION]);
  migrated.close();
});

test('a version 5 index is migrated to version 6: the trigram index made again without tool output, no file read', async () => {
  const dir = projects();
  // what romp 5's schema wrote: the trigram index over every text but a tool output's, which it held in part
  const path = await olderIndex(
    dir,
    `DROP TABLE blocks_trigram; DROP VIEW blocks_search;
    CREATE VIEW blocks_search AS SELECT id, CASE WHEN role = 'typed' THEN text ELSE '' END AS typed,
      CASE WHEN role IN ('assistant', 'thinking') THEN text ELSE '' END AS assistant,
      CASE WHEN role IN ('typed', 'assistant', 'thinking') THEN '' ELSE text END AS tools,
      CASE WHEN role = 'tool_result' THEN substr(text, 1, 1024) ELSE text END AS trigram_text, text FROM blocks;
    CREATE VIRTUAL TABLE blocks_trigram USING fts5(trigram_text, content='blocks_search', content_rowid='id', tokenize='trigram', detail='none', columnsize=0);
    INSERT INTO blocks_trigram(blocks_trigram) VALUES ('rebuild')`,
    5,
  );
  const migrated = openIndexForWrite(path, (d) => assert.fail(`migrated, not recreated: ${d.message}`));
  assert.match(
    String(migrated.all("SELECT sql FROM sqlite_master WHERE name = 'blocks_search'")[0]?.['sql']),
    /CASE role WHEN 'tool_result' THEN '' WHEN 'tool_use' THEN substr\(text, 1, 1024\) ELSE text END AS trigram_text/,
  );
  // "tte" is a part of "otter", "ixe" of "Fixed.": found through the trigram index made again
  assert.deepEqual(
    searchIndex(migrated, 'tte')
      .map((h) => [h.session_id, h.uuid])
      .sort(),
    [
      ['s1', 'u1'],
      ['s2', 'u1'],
    ],
  );
  assert.deepEqual(
    migrated.all("SELECT count(*) AS n FROM blocks_trigram WHERE blocks_trigram MATCH 'ixe'")[0]?.['n'],
    2,
  );
  const report = await refreshIndex(migrated, { projectsDir: dir });
  assert.deepEqual([report.unchanged, report.bytesRead], [2, 0], 'no file is read again');
  migrated.close();
});

test('a version 6 index is migrated to version 7: no ctime recorded, so each file is stamped once, none read', async () => {
  const dir = projects();
  const path = await olderIndex(dir, 'SELECT 1', 6);
  const migrated = openIndexForWrite(path, (d) => assert.fail(`migrated, not recreated: ${d.message}`));
  assert.deepEqual(
    migrated.all('SELECT ctime_ms FROM files').map((r) => r['ctime_ms']),
    [-1, -1],
  );
  const report = await refreshIndex(migrated, { projectsDir: dir });
  assert.deepEqual([report.unchanged, report.statOnly, report.bytesRead], [2, 0, 0]);
  migrated.close();
});

test('a version 7 index is migrated to version 8: its usage groups made the first part of each file, none read', async () => {
  const dir = projects();
  const path = await olderIndex(dir, 'SELECT 1', 7);
  const migrated = openIndexForWrite(path, (d) => assert.fail(`migrated, not recreated: ${d.message}`));
  // each file: m1 and m2, 10 input tokens each; the row keeps the line after the last read (5: four lines)
  assert.deepEqual(
    migrated.all('SELECT path, usage_json FROM usage_files ORDER BY path').map((r) => {
      const { groups, diagnostics, next } = storedParts(migrated, String(r['path']), String(r['usage_json']));
      return [
        String(r['path']).slice(dir.length),
        [...groups.keys()].length,
        [...groups.values()][0]?.usage['input_tokens'],
        diagnostics.length,
        next,
        r['usage_json'],
      ];
    }),
    [
      ['/-work-demo/s1.jsonl', 2, 10, 0, 5, '{"next":5}'],
      ['/-work-demo/s2.jsonl', 2, 10, 0, 5, '{"next":5}'],
    ],
  );
  const report = await refreshIndex(migrated, { projectsDir: dir });
  assert.deepEqual([report.unchanged, report.bytesRead], [2, 0], 'no file is read again');
  migrated.close();
});

test('a version 8 index is migrated to version 10: block ids in time order, full-text indexes made again, none read', async () => {
  const dir = projects();
  // version 8's ids: the order written, here newest first
  const path = await olderIndex(
    dir,
    `CREATE TEMP TABLE o AS SELECT id, row_number() OVER (ORDER BY id DESC) AS n FROM blocks;
    UPDATE blocks SET id = -id; UPDATE blocks SET id = (SELECT n FROM o WHERE o.id = -blocks.id); DROP TABLE o;
    INSERT INTO blocks_fts(blocks_fts) VALUES ('rebuild'); INSERT INTO blocks_trigram(blocks_trigram) VALUES ('rebuild')`,
    8,
  );
  const migrated = openIndexForWrite(path, (d) => assert.fail(`migrated, not recreated: ${d.message}`));
  const order = (by: string): unknown[] =>
    migrated
      .all(
        `SELECT b.session_key || '/' || b.key AS k FROM blocks b JOIN atoms a ON a.session_key = b.session_key AND a.key = b.atom_key ORDER BY ${by}`,
      )
      .map((r) => r['k']);
  // 4 blocks of each session, at 0, 1, 2 and 3 s: the sessions' blocks of one second by key
  assert.deepEqual(order('b.id'), order('a.t, b.session_key, b.key'));
  assert.deepEqual(order('b.id').slice(0, 2), ['s1/u1:0', 's2/u1:0']);
  // the first block's 100 ms since 2020 + 1, the next of its second one more, the next second's 10 more
  const base = (T0 - Date.UTC(2020, 0, 1)) / 100 + 1;
  assert.deepEqual(
    migrated.all('SELECT id FROM blocks ORDER BY id').map((r) => Number(r['id']) - base),
    [0, 1, 10, 11, 20, 21, 30, 31],
  );
  // both full-text indexes hold the new ids: the highest (s2's, after s1's in the same second) first among equals
  for (const [q, uuid] of [
    ['fixed', 'a2'],
    ['otte', 'u1'],
  ])
    assert.deepEqual(
      searchIndex(migrated, q as string).map((h) => [h.session_id, h.uuid, h.matched]),
      [
        ['s2', uuid, q === 'fixed' ? 'words' : 'substring'],
        ['s1', uuid, q === 'fixed' ? 'words' : 'substring'],
      ],
    );
  const report = await refreshIndex(migrated, { projectsDir: dir });
  assert.deepEqual([report.unchanged, report.bytesRead], [2, 0]);
  migrated.close();
});
