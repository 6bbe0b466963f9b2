/**
 * The index's schema (docs/index.md, "Schema"), version {@link SCHEMA_VERSION}. Row tables hold the
 * rows of `sessionRows` column for column; `files` is the index's own bookkeeping; `blocks_fts` and
 * `blocks_trigram` are FTS5 indexes over `blocks_search`, a view that splits each block's text into the
 * column it is searched as.
 */
import { ROW_ENTITIES, type RowEntity } from '../rows/row-types.ts';
import { BLOCK_ID_EPOCH, BLOCK_ID_LAST_MS, BLOCK_ID_UNIT_MS, BLOCK_TIME_SQL } from './block-ids.ts';

/** The schema's version, in `meta.schema_version`. */
export const SCHEMA_VERSION = 11;

/** What `meta.app` says in a romp index: any other database at the path is foreign. */
export const INDEX_APP = 'romp-index';

const TOKENS = `input_tokens INTEGER NOT NULL, output_tokens INTEGER NOT NULL, cache_creation_input_tokens INTEGER NOT NULL,
  ephemeral_5m_input_tokens INTEGER NOT NULL, ephemeral_1h_input_tokens INTEGER NOT NULL, cache_read_input_tokens INTEGER NOT NULL`;

/** The row tables (one per entity of `sessionRows`), in the order rows are written. */
export const ROW_TABLES: readonly RowTable[] = ROW_ENTITIES;

/** A row table's name. */
export type RowTable = RowEntity;

/** What `romp ls` lists of a file (`fileListing`, JSON), and the stamp of the bytes it was read from. */
const LISTINGS = `CREATE TABLE listings (
  path TEXT PRIMARY KEY, dev INTEGER NOT NULL, ino INTEGER NOT NULL, size INTEGER NOT NULL, mtime_ms REAL NOT NULL,
  head_hash TEXT NOT NULL, tail_hash TEXT NOT NULL, listing_json TEXT NOT NULL);`;

/** What `romp usage` reads of a file (its response groups and diagnostics, JSON), and the stamp of the bytes it was
 * read from. */
const USAGE_FILES = `CREATE TABLE usage_files (
  path TEXT PRIMARY KEY, dev INTEGER NOT NULL, ino INTEGER NOT NULL, size INTEGER NOT NULL, mtime_ms REAL NOT NULL,
  head_hash TEXT NOT NULL, tail_hash TEXT NOT NULL, usage_json TEXT NOT NULL);`;

/** The romp that read a stamped row (`PARSER_VERSION`): a row another romp read is read again, even for the same
 * bytes, since what romp makes of them may have changed. */
const STAMPED_VERSION = `ALTER TABLE listings ADD COLUMN parser_version TEXT NOT NULL DEFAULT '';
ALTER TABLE usage_files ADD COLUMN parser_version TEXT NOT NULL DEFAULT '';`;

/** Characters of a tool input (`tool_use` block, JSON) the trigram index holds: its start, where the command, path or
 * pattern is (a `Write` or `Edit` input goes on with file contents). The rest is found by its words only. */
export const TRIGRAM_TOOL_INPUT_CHARS = 1024;

/** A file's change time as its stamp kept it (`FileStamp.ctime_ms`; `-1`, none), which lets a refresh take a file
 * whose device, inode, size, mtime and ctime are the same as unchanged without reading it; and the stamps of
 * `listings` and `usage_files` in indexes of their own, read without the JSON beside them. */
const STAT_STAMPS = `ALTER TABLE files ADD COLUMN ctime_ms REAL NOT NULL DEFAULT -1;
CREATE INDEX listings_stamp ON listings(path, parser_version, dev, ino, size, mtime_ms, head_hash, tail_hash);
CREATE INDEX usage_files_stamp ON usage_files(path, parser_version, dev, ino, size, mtime_ms, head_hash, tail_hash);`;

/** The response groups of `usage_files`, a part per read: a whole read's, then one per append read from where the last
 * stopped (its new bytes' groups), folded in `part` order by `countUsage`'s merge; the row keeps where the reader goes
 * on (`next`). An append costs its own groups, not a rewrite of the file's (2.7 MB of JSON for a 100 MB session). */
const USAGE_PARTS = `CREATE TABLE usage_parts (
  path TEXT NOT NULL, part INTEGER NOT NULL, usage_json TEXT NOT NULL, PRIMARY KEY (path, part)) WITHOUT ROWID;`;

/** Schema 7's `usage_json` (groups, diagnostics, next) made the first part of its file; the row keeps `next`. */
const USAGE_IN_PARTS = `${USAGE_PARTS}
INSERT INTO usage_parts (path, part, usage_json) SELECT path, 0, usage_json FROM usage_files;
UPDATE usage_files SET usage_json = CASE WHEN json_type(usage_json, '$.next') IS NULL THEN '{}'
  ELSE json_object('next', json_extract(usage_json, '$.next')) END;`;

/** Per file, where a new process can read its appended bytes from (`tailRows`: the last turn's first line, what the
 * lines before it say, the session row's sums before it, the keys of the last turn's rows and of the rows of no turn),
 * as JSON, written with the file's rows; a file without one is read whole at its next append. Apart from `files`,
 * which every refresh reads whole. */
const RESTARTS = `CREATE TABLE IF NOT EXISTS restarts (path TEXT PRIMARY KEY, restart_json TEXT NOT NULL);`;

/** The view the full-text indexes read (external content): each block's text split into the column it is searched as,
 * and `trigram_text`, what the trigram index holds: what a human typed, assistant text and every other text whole, a
 * tool input's first {@link TRIGRAM_TOOL_INPUT_CHARS} characters, no tool output (`tool_result`: found by its words,
 * `blocks_fts`, only). The trigram index was half the writer's time in a full build, a tool output four tenths of its
 * input. */
const SEARCH_SQL = `CREATE VIEW blocks_search AS SELECT id,
  CASE WHEN role = 'typed' THEN text ELSE '' END AS typed,
  CASE WHEN role IN ('assistant', 'thinking') THEN text ELSE '' END AS assistant,
  CASE WHEN role IN ('typed', 'assistant', 'thinking') THEN '' ELSE text END AS tools,
  CASE role WHEN 'tool_result' THEN '' WHEN 'tool_use' THEN substr(text, 1, ${TRIGRAM_TOOL_INPUT_CHARS}) ELSE text END AS trigram_text,
  text
  FROM blocks;`;

/** The trigram index (substrings, text without spaces): no positions (`detail=none`), no column sizes (`columnsize=0`:
 * nothing ranks its hits), the text stored once, in `blocks`. */
const TRIGRAM_SQL = `CREATE VIRTUAL TABLE blocks_trigram USING fts5(trigram_text, content='blocks_search', content_rowid='id', tokenize='trigram', detail='none', columnsize=0);`;

/** Makes the search view and the trigram index again, the index from the blocks in SQLite (`rebuild`). */
const TRIGRAM_AGAIN = `DROP TABLE blocks_trigram; DROP VIEW blocks_search; ${SEARCH_SQL} ${TRIGRAM_SQL}
    INSERT INTO blocks_trigram(blocks_trigram) VALUES ('rebuild');`;

/** Gives each block the id `blockIds` gives it, in SQL: over the blocks in order (atom time, `session_key`, `atom_key`,
 * `index`; a block of unknown time at its session's first, {@link BLOCK_TIME_SQL}), the larger of the block's base
 * (its time's unit of {@link BLOCK_ID_UNIT_MS} from {@link BLOCK_ID_EPOCH}, + 1) and the id before + 1, which is the
 * block's rank plus the largest base − rank up to it. The ids are made negative first, so that no new id meets an old
 * one; then the full-text indexes are made again from the blocks (`rebuild`). SQL compares keys by their UTF-8 bytes,
 * `blockIds` by UTF-16 code units: the same order but for keys with characters above U+FFFF. */
const PACED_BLOCK_IDS = `CREATE TEMP TABLE block_ranks AS SELECT b.id AS old,
    max(0, min(${BLOCK_ID_LAST_MS}, ${BLOCK_TIME_SQL} - ${BLOCK_ID_EPOCH})) / ${BLOCK_ID_UNIT_MS} + 1 AS base,
    row_number() OVER (ORDER BY ${BLOCK_TIME_SQL}, b.session_key, b.atom_key, b."index") AS rank
    FROM blocks b LEFT JOIN atoms a ON a.session_key = b.session_key AND a.key = b.atom_key
    LEFT JOIN sessions s ON s.key = b.session_key;
  CREATE TEMP TABLE block_ids AS SELECT -old AS old, rank + max(base - rank) OVER (ORDER BY rank ROWS UNBOUNDED PRECEDING) AS new
    FROM block_ranks;
  CREATE UNIQUE INDEX temp.block_ids_old ON block_ids(old);
  UPDATE blocks SET id = -id;
  UPDATE blocks SET id = (SELECT new FROM block_ids WHERE old = blocks.id);
  DROP TABLE block_ranks; DROP TABLE block_ids;
  INSERT INTO blocks_fts(blocks_fts) VALUES ('rebuild');
  INSERT INTO blocks_trigram(blocks_trigram) VALUES ('rebuild');`;

/** The row tables keyed by (`session_key`, `key`): stored in their key's b-tree (`WITHOUT ROWID`), one b-tree per row
 * written, not a table and an index of it. */
const KEYED = ['turns', 'atoms', 'tool_calls', 'usage_facts', 'subagents', 'diagnostics'] as const;

/** The statements that create the current version (run in one transaction on an empty database). */
export const SCHEMA_SQL: string = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE files (
  path TEXT PRIMARY KEY, session_key TEXT NOT NULL, project TEXT NOT NULL, parent_path TEXT,
  dev INTEGER NOT NULL, ino INTEGER NOT NULL, size INTEGER NOT NULL, mtime_ms REAL NOT NULL,
  head_hash TEXT NOT NULL, tail_hash TEXT NOT NULL, bytes_read INTEGER NOT NULL, parser_version TEXT NOT NULL, indexed_at INTEGER NOT NULL);
CREATE INDEX files_session ON files(session_key);
${LISTINGS}
${USAGE_FILES}
${STAMPED_VERSION}
${STAT_STAMPS}
${USAGE_PARTS}
${RESTARTS}
CREATE TABLE sessions (
  key TEXT PRIMARY KEY, session_ids_json TEXT NOT NULL, paths_json TEXT NOT NULL, project TEXT NOT NULL, title TEXT NOT NULL,
  leaf_fsid TEXT NOT NULL, first_t INTEGER NOT NULL, last_t INTEGER NOT NULL, turns INTEGER NOT NULL, atoms INTEGER NOT NULL,
  models_json TEXT NOT NULL, ${TOKENS}, responses INTEGER NOT NULL, cost_usd REAL NOT NULL, unpriced INTEGER NOT NULL,
  parent_key TEXT, parent_tool_use_id TEXT, git_branch TEXT);
CREATE TABLE turns (
  key TEXT NOT NULL, session_key TEXT NOT NULL, "index" INTEGER NOT NULL, trigger TEXT, author TEXT, peer TEXT,
  prompt TEXT NOT NULL, outcome TEXT NOT NULL, t INTEGER NOT NULL, "end" INTEGER NOT NULL, duration_ms INTEGER NOT NULL,
  ended INTEGER NOT NULL, atoms INTEGER NOT NULL, tools_json TEXT NOT NULL, ${TOKENS}, responses INTEGER NOT NULL,
  cost_usd REAL NOT NULL, unpriced INTEGER NOT NULL, lower_bound INTEGER NOT NULL, subagents INTEGER NOT NULL,
  PRIMARY KEY (session_key, key)) WITHOUT ROWID;
CREATE TABLE atoms (
  key TEXT NOT NULL, session_key TEXT NOT NULL, turn_key TEXT, turn_index INTEGER, seq INTEGER NOT NULL, fsid TEXT,
  line INTEGER, byte_offset INTEGER, type TEXT NOT NULL, subtype TEXT, t INTEGER NOT NULL, parent_uuid TEXT, message_id TEXT,
  request_id TEXT, model TEXT, stop_reason TEXT, author TEXT, peer TEXT, on_path INTEGER NOT NULL, subagent_of TEXT,
  PRIMARY KEY (session_key, key)) WITHOUT ROWID;
CREATE TABLE blocks (
  id INTEGER PRIMARY KEY, key TEXT NOT NULL, session_key TEXT NOT NULL, atom_key TEXT NOT NULL, turn_key TEXT,
  "index" INTEGER NOT NULL, type TEXT NOT NULL, role TEXT NOT NULL, author TEXT, tool_name TEXT, tool_use_id TEXT,
  text TEXT NOT NULL, text_length INTEGER NOT NULL, is_error INTEGER NOT NULL, on_path INTEGER NOT NULL,
  UNIQUE (session_key, key));
CREATE TABLE tool_calls (
  key TEXT NOT NULL, session_key TEXT NOT NULL, turn_key TEXT NOT NULL, tool_use_id TEXT NOT NULL, name TEXT NOT NULL,
  input_summary TEXT NOT NULL, use_key TEXT, result_key TEXT, t INTEGER, "end" INTEGER, duration_ms INTEGER,
  is_error INTEGER NOT NULL, error TEXT, subagent_key TEXT, PRIMARY KEY (session_key, key)) WITHOUT ROWID;
CREATE TABLE usage_facts (
  key TEXT NOT NULL, session_key TEXT NOT NULL, message_id TEXT NOT NULL, request_id TEXT, atom_key TEXT NOT NULL,
  turn_key TEXT, model TEXT NOT NULL, t INTEGER NOT NULL, is_sidechain INTEGER NOT NULL, lower_bound INTEGER NOT NULL,
  ${TOKENS}, cost_usd REAL, PRIMARY KEY (session_key, key)) WITHOUT ROWID;
CREATE TABLE subagents (
  key TEXT NOT NULL, session_key TEXT NOT NULL, subagent_key TEXT, path TEXT, linked_by TEXT NOT NULL, atoms INTEGER NOT NULL,
  PRIMARY KEY (session_key, key)) WITHOUT ROWID;
CREATE INDEX subagents_path ON subagents(path);
CREATE TABLE diagnostics (
  key TEXT NOT NULL, session_key TEXT NOT NULL, code TEXT NOT NULL, severity TEXT NOT NULL, message TEXT NOT NULL,
  file TEXT NOT NULL, line INTEGER, byte_offset INTEGER, uuid TEXT, PRIMARY KEY (session_key, key)) WITHOUT ROWID;
${SEARCH_SQL}
CREATE VIRTUAL TABLE blocks_fts USING fts5(typed, assistant, tools, content='blocks_search', content_rowid='id', tokenize='unicode61 remove_diacritics 2');
${TRIGRAM_SQL}
`;

/**
 * Migrations: `MIGRATIONS[v]` takes a version-`v` index to `v + 1`. Version 1 is the first; an index of
 * an unknown (newer) version, or one a migration cannot take, is rebuilt: the index is derived from the
 * transcripts, so rebuilding loses nothing.
 *
 * - 1 → 2: `sessions.git_branch`, and `listings` (what `romp ls` lists). Only the transcripts know a
 *   branch, so every file is marked for reading again (`parser_version` emptied): the next refresh fills
 *   the column, file by file, as a new parser would, and the listings.
 * - 2 → 3: `usage_files` (what `romp usage` reads). Nothing else changed: the next refresh fills it for every file,
 *   as it fills a missing listing, without parsing any file again.
 * - 3 → 4: the trigram index holds a tool output's first 1,024 characters only, without
 *   column sizes: `blocks_search` gains `trigram_text`, and `blocks_trigram` is made again from the blocks
 *   (`rebuild`), in SQLite; the tables keyed by (`session_key`, `key`) are made again `WITHOUT ROWID`, rows copied;
 *   no file is read again.
 * - 4 → 5: `listings` and `usage_files` say which romp read each row (`parser_version`); the rows of before say none,
 *   so the next refresh reads each of them again, as it reads a file another romp parsed.
 * - 5 → 6: the trigram index holds no tool output, and a tool input's first {@link TRIGRAM_TOOL_INPUT_CHARS}
 *   characters: made again from the blocks, in SQLite; no file is read again.
 * - 6 → 7: `files.ctime_ms` (none, `-1`, in the rows of before: the next refresh stamps each file as before and keeps
 *   its ctime), and the stamp indexes of `listings` and `usage_files`; no file is read again.
 * - 7 → 8: `usage_parts`, the response groups of `usage_files` (its `usage_json` made the file's first part, the row
 *   keeping where the reader goes on): an append adds a part instead of rewriting them; no file is read again.
 * - 8 → 9: a block's id followed its atom's time (its millisecond × 4,096 and a slot), where it was the order written;
 *   nothing now: 9 → 10 gives every block its id.
 * - 9 → 10: a block's id follows its atom's time, dense where the blocks are ({@link PACED_BLOCK_IDS}): FTS5 stores a
 *   doclist's rowid steps as varints, and a millisecond × 4,096 made them 4 or 5 bytes; both full-text indexes made
 *   again from the blocks, in SQLite; no file is read again.
 * - 10 → 11: `restarts`, where a new process reads a file's append from; none of before: each file's next append reads
 *   it whole once (and writes its restart).
 */
export const MIGRATIONS: Readonly<Record<number, string>> = {
  1: `ALTER TABLE sessions ADD COLUMN git_branch TEXT; UPDATE files SET parser_version = ''; ${LISTINGS}`,
  2: USAGE_FILES,
  3: `${TRIGRAM_AGAIN} ${KEYED.map(inKeyOrder).join(' ')}
    CREATE INDEX subagents_path ON subagents(path);`,
  4: STAMPED_VERSION,
  5: TRIGRAM_AGAIN,
  6: STAT_STAMPS,
  7: USAGE_IN_PARTS,
  8: '',
  9: PACED_BLOCK_IDS,
  10: RESTARTS,
};

/** Makes a table again as `SCHEMA_SQL` creates it (`WITHOUT ROWID`), with its rows. */
function inKeyOrder(table: string): string {
  const create = (SCHEMA_SQL.match(new RegExp(`CREATE TABLE ${table} \\([^;]*WITHOUT ROWID;`)) as RegExpMatchArray)[0];
  return `${create.replace(`CREATE TABLE ${table} (`, `CREATE TABLE ${table}_v4 (`)} INSERT INTO ${table}_v4 SELECT * FROM ${table};
    DROP TABLE ${table}; ALTER TABLE ${table}_v4 RENAME TO ${table};`;
}
