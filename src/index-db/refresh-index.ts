import { createHash } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import type { Diagnostic } from '../diagnostics/diagnostic.ts';
import { discoverTranscripts, type DiscoveredFile } from '../discover/discover-transcripts.ts';
import { firstSessionId } from '../discover/first-session-id.ts';
import { readBranches, type Branch } from '../html/read-branches.ts';
import { SessionWatcher } from '../live/session-watcher.ts';
import { responsePlaces, responseRows } from '../rows/response-rows.ts';
import { sessionRows, type LinkedSubagent } from '../rows/session-rows.ts';
import { countUsage } from '../usage/count-usage.ts';
import { findSubagents } from '../discover/find-subagents.ts';
import type { Database, SqlValue } from './database.ts';
import { hashAt, HEAD_BYTES, stampFile, TAIL_BYTES, type FileStamp } from './file-stamp.ts';
import { PARSER_VERSION } from './parser-version.ts';
import { removeSessionRows, writeSessionRows } from './write-rows.ts';
import { refreshListings } from './listings.ts';

/** Progress of a refresh, after each file read. */
export interface RefreshProgress {
  /** Files read so far, of those that changed. */
  files: number;
  totalFiles: number;
  /** Transcript bytes read so far, of those to read. */
  bytes: number;
  totalBytes: number;
}

/** Transcripts followed by one process across refreshes: an append is then read from where it stopped. */
export type WatcherCache = Map<string, WatchedFile>;

/** A kept watcher, the diagnostics of everything it read, and the rewound branches last read back (by how many dead
 * lines there were). */
export interface WatchedFile {
  watcher: SessionWatcher;
  diagnostics: Diagnostic[];
  branches?: { dead: number; list: Branch[] };
}

/** Options of `refreshIndex`. */
export interface RefreshOptions {
  /** Claude Code's projects folder. */
  projectsDir: string;
  onProgress?: (progress: RefreshProgress) => void;
  /** Keep each file's watcher here between refreshes (`romp index --watch`, tests): appends cost their bytes only. */
  watchers?: WatcherCache;
}

/** What a refresh did. */
export interface RefreshReport {
  /** Transcripts found. */
  files: number;
  unchanged: number;
  added: number;
  /** Files that grew with the same start (appends). */
  appended: number;
  /** Files replaced, rewritten, or indexed by another parser version: read again from the start. */
  reread: number;
  /** Files gone from the folder: their rows were removed. */
  removed: number;
  /** Transcript bytes fed to the parser. */
  bytesRead: number;
  /** Turns written (new or changed). */
  turnsWritten: number;
  /** Paths of the files read (added, appended, reread). */
  read: string[];
}

interface Work {
  file: DiscoveredFile;
  stamp: FileStamp;
  kind: 'added' | 'appended' | 'reread';
  old: FileRow | undefined;
}

interface FileRow extends FileStamp {
  path: string;
  session_key: string;
  bytes_read: number;
  parser_version: string;
}

/** Commit at least this often (files), so readers see progress and a crash keeps what was done. */
const COMMIT_EVERY = 200;

/**
 * Brings the index up to date with a projects folder (docs/index.md, "Freshness"). Each transcript's
 * stamp (device, inode, size, mtime, hash of its first 4 KiB, hash of the 64 bytes before the bytes read)
 * says what happened to it: nothing (skipped, not parsed), an append (same file, same start, same bytes
 * where the last read stopped, larger: with a kept watcher only the new bytes are read), or anything
 * else (replaced, rewritten, shrunk, another parser version: read again once). Freshness never rests on
 * mtime alone. Only the turns whose atoms, end or `ended` changed are rewritten. A file gone from the folder
 * has its rows removed. Subagent transcripts (`<id>/subagents/**`, 2.0.x `agent-*.jsonl`) are sessions of
 * their own, keyed `<parent key>/<agent file name>`, linked both ways. The caller holds the write lock.
 * @param db the index (opened by `openIndexForWrite`)
 * @param options projects folder, progress, watcher cache
 * @returns what was done
 */
export async function refreshIndex(db: Database, options: RefreshOptions): Promise<RefreshReport> {
  const { files } = await discoverTranscripts(options.projectsDir);
  const known = new Map((db.all('SELECT * FROM files') as unknown as FileRow[]).map((r) => [r.path, r]));
  const report: RefreshReport = {
    files: files.length,
    unchanged: 0,
    added: 0,
    appended: 0,
    reread: 0,
    removed: 0,
    bytesRead: 0,
    turnsWritten: 0,
    read: [],
  };
  const present = new Set(files.map((f) => f.path));
  const work: Work[] = [];
  const stamps = new Map<string, FileStamp>();
  // main transcripts before subagents, so a subagent finds its parent's key and link
  for (const file of [...files].sort((a, b) => Number(isSubagent(a)) - Number(isSubagent(b)))) {
    const old = known.get(file.path);
    const stamp = await stampFile(file.path);
    if (stamp === undefined) continue; // vanished since the walk: gone next time
    stamps.set(file.path, stamp);
    const kind = await classify(file.path, stamp, old);
    if (kind === 'unchanged') report.unchanged++;
    else work.push({ file, stamp, kind, old });
  }
  const total = {
    files: work.length,
    bytes: work.reduce(
      (n, w) =>
        n +
        w.stamp.size -
        (w.kind === 'appended' && options.watchers?.has(w.file.path) === true ? (w.old?.bytes_read ?? 0) : 0),
      0,
    ),
  };
  db.exec('BEGIN IMMEDIATE');
  try {
    for (const [path, row] of known) {
      if (present.has(path)) continue;
      removeSessionRows(db, row.session_key);
      db.run('DELETE FROM files WHERE path = ?', [path]);
      options.watchers?.delete(path);
      report.removed++;
    }
    let done = 0;
    for (const w of work) {
      await indexFile(db, w, options, report);
      options.onProgress?.({
        files: ++done,
        totalFiles: total.files,
        bytes: report.bytesRead,
        totalBytes: total.bytes,
      });
      if (done % COMMIT_EVERY === 0) db.exec('COMMIT; BEGIN IMMEDIATE');
    }
    await refreshListings(db, stamps);
    db.exec('COMMIT');
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  }
  return report;
}

/** What happened to a file since it was indexed. */
async function classify(path: string, stamp: FileStamp, old: FileRow | undefined): Promise<'unchanged' | Work['kind']> {
  if (old === undefined) return 'added';
  // the first bytes as they were hashed then (a file under 4 KiB had fewer)
  const head =
    stamp.size >= old.size && old.size < HEAD_BYTES ? await hashAt(path, 0, old.size).catch(() => '') : stamp.head_hash;
  const same =
    old.parser_version === PARSER_VERSION && old.dev === stamp.dev && old.ino === stamp.ino && old.head_hash === head;
  if (!same) return 'reread';
  if (stamp.size === old.size && stamp.mtime_ms === old.mtime_ms && stamp.tail_hash === old.tail_hash)
    return 'unchanged';
  // the bytes where the last read stopped must still be there: else the file was rewritten
  const before = await hashAt(
    path,
    Math.max(0, old.bytes_read - TAIL_BYTES),
    Math.min(old.bytes_read, TAIL_BYTES),
  ).catch(() => '');
  return stamp.size > old.bytes_read && before === old.tail_hash
    ? 'appended'
    : stamp.size === old.size && before === old.tail_hash
      ? 'unchanged'
      : 'reread';
}

async function indexFile(db: Database, w: Work, options: RefreshOptions, report: RefreshReport): Promise<void> {
  const path = w.file.path;
  let kept = options.watchers?.get(path);
  const resumed = kept !== undefined && w.kind === 'appended';
  if (!resumed) {
    kept = { watcher: new SessionWatcher([path], { view: 'full' }), diagnostics: [] };
    if (options.watchers !== undefined) options.watchers.set(path, kept);
  }
  const entry = kept as WatchedFile;
  const update = await entry.watcher.update();
  entry.diagnostics.push(...update.diagnostics);
  report.bytesRead += resumed ? w.stamp.size - (w.old?.bytes_read ?? 0) : w.stamp.size;
  report[w.kind]++;
  report.read.push(path);
  const parentPath = isSubagent(w.file) ? await parentOf(w.file) : null;
  const key = uniqueKey(
    db,
    parentPath === null ? update.session.rompUuid : `${keyOfPath(db, parentPath)}/${basename(path, '.jsonl')}`,
    path,
  );
  if (w.old !== undefined && w.old.session_key !== key) removeSessionRows(db, w.old.session_key);
  const links: LinkedSubagent[] =
    parentPath === null
      ? (await findSubagents(update.session)).map((l) => ({ ...l, key: `${key}/${basename(l.path, '.jsonl')}` }))
      : [];
  const parent =
    parentPath === null
      ? undefined
      : (db.all('SELECT session_key AS key, key AS tool_use_id FROM subagents WHERE path = ?', [path])[0] as
          { key: string; tool_use_id: string } | undefined);
  const dead = update.session.records.reduce((n, r) => n + (r.onPath === false ? 1 : 0), 0);
  if (entry.branches?.dead !== dead) entry.branches = { dead, list: (await readBranches(update.session)).branches };
  const changed =
    w.old?.session_key === key
      ? changedTurns(
          db,
          key,
          update.session.turns.map((t) => ({ key: t.id, atoms: t.atoms.length, end: t.end, ended: t.ended })),
        )
      : undefined;
  const context = {
    diagnostics: entry.diagnostics,
    branches: entry.branches.list,
    subagents: links,
    ...(parent === undefined ? {} : { parent }),
    ...(changed === undefined ? {} : { onlyTurns: changed }),
  };
  const rows = sessionRows({ ...update.session, rompUuid: key }, context);
  // usage as `romp usage` counts it: every response of the file, rewound branches and in-file sidechain
  // lines included (the Session holds neither); a response on the path keeps its turn
  const { responses } = await countUsage([path]);
  rows.usage_facts = responseRows(responses, () => key, responsePlaces(rows.atoms));
  writeSessionRows(db, rows, changed);
  report.turnsWritten += changed?.size ?? rows.turns.length;
  for (const link of links)
    db.run('UPDATE sessions SET parent_key = ?, parent_tool_use_id = ? WHERE key = ?', [
      key,
      link.tool_use_id,
      link.key,
    ]);
  const s = w.stamp;
  const values: SqlValue[] = [
    path,
    key,
    w.file.project,
    parentPath,
    s.dev,
    s.ino,
    s.size,
    s.mtime_ms,
    s.head_hash,
    s.tail_hash,
    s.size,
    PARSER_VERSION,
    Date.now(),
  ];
  db.run(
    'INSERT OR REPLACE INTO files (path, session_key, project, parent_path, dev, ino, size, mtime_ms, head_hash, tail_hash, bytes_read, parser_version, indexed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    values,
  );
}

/** Keys of turns that are new, gone, or whose atoms, end or `ended` differ from the index's. */
function changedTurns(
  db: Database,
  key: string,
  turns: ReadonlyArray<{ key: string; atoms: number; end: number; ended: boolean }>,
): Set<string> {
  const old = new Map(
    db
      .all('SELECT key, atoms, "end", ended FROM turns WHERE session_key = ?', [key])
      .map((r) => [r['key'] as string, r]),
  );
  const changed = new Set<string>();
  for (const t of turns) {
    const was = old.get(t.key);
    if (was === undefined || was['atoms'] !== t.atoms || was['end'] !== t.end || was['ended'] !== (t.ended ? 1 : 0))
      changed.add(t.key);
    old.delete(t.key);
  }
  for (const gone of old.keys()) changed.add(gone);
  return changed;
}

/** The key wanted, unless another file already has it: then the key and a hash of the path (`key@1a2b3c4d`). */
function uniqueKey(db: Database, wanted: string, path: string): string {
  const other = db.all('SELECT path FROM files WHERE session_key = ? AND path <> ?', [wanted, path]);
  return other.length === 0 ? wanted : `${wanted}@${createHash('sha1').update(path).digest('hex').slice(0, 8)}`;
}

/** The key the index gave a file, else its name (a parent not indexed: an orphan subagent). */
function keyOfPath(db: Database, path: string): string {
  return (
    (db.all('SELECT session_key FROM files WHERE path = ?', [path])[0]?.['session_key'] as string | undefined) ??
    basename(path, '.jsonl')
  );
}

function isSubagent(file: DiscoveredFile): boolean {
  return file.parts.slice(0, -1).includes('subagents') || (file.parts.at(-1) ?? '').startsWith('agent-');
}

/** The parent transcript of a subagent's: `<project>/<id>.jsonl` for `<project>/<id>/subagents/**`, else the file of
 * the `sessionId` its lines carry, beside it. */
async function parentOf(file: DiscoveredFile): Promise<string> {
  const projectDir =
    file.parts.length > 2 && file.parts[1] === 'subagents'
      ? file.path.slice(0, file.path.length - join(...file.parts).length - 1)
      : dirname(file.path);
  const id = file.parts.length > 2 && file.parts[1] === 'subagents' ? file.parts[0] : await firstSessionId(file.path);
  return join(projectDir, `${id ?? basename(file.path, '.jsonl')}.jsonl`);
}
