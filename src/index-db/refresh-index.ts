import { createHash } from 'node:crypto';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { discoverTranscripts, type DiscoveredFile, type SkippedEntry } from '../discover/discover-transcripts.ts';
import { notTranscript } from '../discover/not-transcript.ts';
import { errorReason } from '../diagnostics/error-reason.ts';
import { firstSessionId } from '../discover/first-session-id.ts';
import type { Database, SqlValue } from './database.ts';
import type { FilePlan, FileRows, WatchedFile } from './file-rows.ts';
import { hashAt, HEAD_BYTES, stampFile, statMatches, TAIL_BYTES, type FileStamp } from './file-stamp.ts';
import { PARSER_VERSION } from './parser-version.ts';
import { RowPool } from './row-pool.ts';
import { SearchQueue } from './search-queue.ts';
import { readRowKeys, removeSessionRows, rowKeysByTurn, writeSessionRows, type RowKeysByTurn } from './write-rows.ts';
import { exactReal, jsonRows } from './json-rows.ts';
import { listedFile, refreshListings } from './listings.ts';
import { timestampText } from '../discover/last-time.ts';
import { parseTimestamp } from '../read/parse-timestamp.ts';
import type { StampedRead } from './stamped-rows.ts';
import { refreshUsageFiles } from './usage-files.ts';
import { usageThreads } from '../usage/usage-threads.ts';

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

/** Options of `refreshIndex`. */
export interface RefreshOptions {
  /** Claude Code's projects folder. */
  projectsDir: string;
  onProgress?: (progress: RefreshProgress) => void;
  /** Keep each file's watcher here between refreshes (`romp index --watch`, tests): appends cost their bytes only. */
  watchers?: WatcherCache;
  /** Worker threads parsing files while this thread writes (0: none, this thread parses; default: one fewer than
   * `usageThreads()`, the threads the machine's load leaves this process, one of them this writer). Without `watchers`
   * only: a kept watcher lives in this thread. */
  workers?: number;
}

/** What a refresh did. */
export interface RefreshReport {
  /** Transcripts found (the files of `skipped` not counted). */
  files: number;
  unchanged: number;
  /** Of the unchanged, those taken as such from their stat alone (`statUnchanged`), not opened. */
  statOnly: number;
  added: number;
  /** Files that grew with the same start (appends). */
  appended: number;
  /** Files replaced, rewritten, or indexed by another parser version: read again from the start. */
  reread: number;
  /** Files gone from the folder: their rows were removed. */
  removed: number;
  /**
   * The projects folder the index was last refreshed from (absolute), when that was another folder than this refresh's
   * and its files' rows were removed: an index holds one projects folder's sessions (`meta`'s `projects_dir`).
   */
  formerProjectsDir?: string;
  /** Transcript bytes fed to the parser. */
  bytesRead: number;
  /** Of the appended, those read from their last turn on (`tailRows`: in a process without kept watchers). */
  fromLastTurn: number;
  /** The appended read whole in a process without kept watchers, with why (`tailRows`' reason). */
  readWhole: Array<{ path: string; reason: string }>;
  /** Turns written (new or changed). */
  turnsWritten: number;
  /** Paths of the files read (added, appended, reread). */
  read: string[];
  /** What the walk left out, with why (`discoverTranscripts`): the rows of files under a folder that could not be read
   * are kept, not removed; then, in the walk's order, each file that cannot be read (`cannot read: …`: its rows kept)
   * and each that is not a transcript (`notTranscript`: not indexed, its rows removed). */
  skipped: SkippedEntry[];
}

/** A file the refresh leaves out, and whether the rows it has are kept (it cannot be read now) or removed. */
interface Skip {
  skip: SkippedEntry;
  keep: boolean;
}

interface Work {
  file: DiscoveredFile;
  stamp: FileStamp;
  kind: 'added' | 'appended' | 'reread';
  old: FileRow | undefined;
  /** The first `timestamp` in the file's first {@link HEAD_BYTES} (epoch ms; `Infinity` when there is none). */
  firstT: number;
}

interface FileRow extends FileStamp {
  path: string;
  session_key: string;
  bytes_read: number;
  parser_version: string;
}

/**
 * The `files` rows, by path (`jsonRows`: one text; the times exact).
 * @param db the index
 * @returns the rows
 */
function knownFiles(db: Database): Map<string, FileRow> {
  const cells = ['path', 'session_key', 'dev', 'ino', 'size', exactReal('mtime_ms'), exactReal('ctime_ms')];
  const rows = jsonRows(db, [...cells, 'head_hash', 'tail_hash', 'bytes_read', 'parser_version'], 'FROM files');
  const known = new Map<string, FileRow>();
  type Cells = [string, string, number, number, number, string, string, string, string, number, string];
  for (const v of rows as Cells[]) {
    known.set(v[0], {
      path: v[0],
      session_key: v[1],
      dev: v[2],
      ino: v[3],
      size: v[4],
      mtime_ms: Number(v[5]),
      ctime_ms: Number(v[6]),
      head_hash: v[7],
      tail_hash: v[8],
      bytes_read: v[9],
      parser_version: v[10],
    });
  }
  return known;
}

/**
 * Per followed file, a digest of the blocks of no turn (rewound lines) last committed from it: an append that leaves
 * them as they were keeps them and their full-text entries (re-indexing a long session's rewound text was most of an
 * append's writing).
 */
const looseWritten = new WeakMap<WatchedFile, string>();

/**
 * Per followed file, the keys of the rows the index holds of it, by turn, as last committed: an append deletes the rows
 * of its changed turns by their keys instead of looking for them among all the session's rows.
 */
const keysWritten = new WeakMap<WatchedFile, RowKeysByTurn>();

/** Per followed file, the size its watcher read it to (an append read from its last turn on leaves it behind). */
const readTo = new WeakMap<WatchedFile, number>();

/** What a write in the running transaction leaves of a followed file, remembered once it is committed. */
interface Written {
  digest: string;
  keys: RowKeysByTurn;
}

/** The parser's side (`file-rows.ts`: the session builder, the row makers), loaded when a file is to be read: a refresh
 * that finds nothing changed never loads it (50 of its 250 ms of start-up CPU at the issue's size). */
const parsing = (): Promise<typeof import('./file-rows.ts')> => import('./file-rows.ts');

/** Files stamped at once when looking for changes. */
const STAMPS_AT_ONCE = 32;

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
 * their own, keyed `<parent key>/<agent file name>`, linked both ways. A file that cannot be read is skipped with its
 * rows kept; one to be read from its start whose head says it is not a transcript (`notTranscript`: a binary named
 * `*.jsonl`) is skipped and not indexed. Then what `romp ls` lists and what
 * `romp usage` reads of each file are brought up to date (`refreshListings`, `refreshUsageFiles`: only for
 * files whose stored stamp differs; a file parsed without kept watchers comes with them, made beside its parse:
 * `parsedRows`). The caller holds the write lock.
 * @param db the index (opened by `openIndexForWrite`)
 * @param options projects folder, progress, watcher cache
 * @returns what was done
 */
export async function refreshIndex(db: Database, options: RefreshOptions): Promise<RefreshReport> {
  // every path the index keeps is absolute, however the folder was named: the same file is one row from anywhere
  const folder = resolve(options.projectsDir);
  const { files, skipped } = await discoverTranscripts(folder);
  // a folder that cannot be read hides its files: they are not gone
  const hidden = skipped.filter((e) => e.reason.startsWith('cannot read:')).map((e) => e.path + sep);
  const known = knownFiles(db);
  const former = db.all("SELECT value FROM meta WHERE key = 'projects_dir'")[0]?.['value'];
  const report: RefreshReport = {
    files: files.length,
    unchanged: 0,
    statOnly: 0,
    added: 0,
    appended: 0,
    reread: 0,
    removed: 0,
    bytesRead: 0,
    fromLastTurn: 0,
    readWhole: [],
    turnsWritten: 0,
    read: [],
    skipped,
  };
  const present = new Set(files.map((f) => f.path));
  const work: Work[] = [];
  const stamps = new Map<string, FileStamp>();
  // a file whose stat is the one recorded is not opened; the others are stamped and their stamps recorded
  const stamped = new Map<string, FileStamp>();
  const toStamp = files.filter((file) => {
    const same = statUnchanged(file.path, known.get(file.path));
    if (same !== undefined) stamps.set(file.path, same);
    return same === undefined;
  });
  report.unchanged += stamps.size;
  report.statOnly = stamps.size;
  // stamped STAMPS_AT_ONCE files at a time (their reads overlap), kept in the walk's order
  for (let i = 0; i < toStamp.length; i += STAMPS_AT_ONCE) {
    const batch = toStamp.slice(i, i + STAMPS_AT_ONCE).map(async (file) => {
      const old = known.get(file.path);
      let unreadable: Skip | undefined;
      let firstT = Infinity;
      const stamp = await stampFile(
        file.path,
        (error) => {
          // vanished since the walk: gone next time; unreadable: named, its rows (if any) kept, as a hidden folder's
          if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
            unreadable = { skip: { path: file.path, reason: `cannot read: ${errorReason(error)}` }, keep: true };
        },
        (head) => (firstT = headTime(head)),
      );
      if (stamp === undefined) return unreadable;
      const kind = await classify(file.path, stamp, old);
      // a file read from its start is judged from its head first: a binary named *.jsonl is no session, and rows it
      // had are removed
      const not =
        kind === 'added' || kind === 'reread' ? await notTranscript(file.path).catch(() => undefined) : undefined;
      return not === undefined
        ? { file, stamp, old, kind, firstT }
        : { skip: { path: file.path, reason: not }, keep: false };
    });
    for (const w of await Promise.all(batch)) {
      if (w === undefined) continue;
      if ('skip' in w) {
        skipped.push(w.skip);
        if (!w.keep) present.delete(w.skip.path);
        report.files--;
        continue;
      }
      stamps.set(w.file.path, w.stamp);
      stamped.set(w.file.path, w.stamp);
      if (w.kind === 'unchanged') report.unchanged++;
      else work.push({ ...w, kind: w.kind });
    }
  }
  // the appended files whose watchers were kept before this refresh (one made in it reads its file whole)
  const keptBefore = new Set(options.watchers?.keys());
  const kept = (w: Work): boolean => w.kind === 'appended' && keptBefore.has(w.file.path);
  const total = {
    files: work.length,
    bytes: work.reduce((n, w) => n + w.stamp.size - (kept(w) ? (w.old?.bytes_read ?? 0) : 0), 0),
  };
  const workers = options.watchers === undefined && work.length > 1 ? (options.workers ?? usageThreads() - 1) : 0;
  const pool = workers > 0 ? new RowPool(workers) : undefined;
  db.exec('BEGIN IMMEDIATE');
  // the full-text entries of the blocks written, made before each commit
  const search = new SearchQueue(db);
  try {
    for (const [path, row] of known) {
      if (present.has(path) || hidden.some((dir) => path.startsWith(dir))) continue;
      removeSessionRows(search, row.session_key);
      for (const table of ['files', 'restarts', 'listings', 'usage_files', 'usage_parts'])
        db.run(`DELETE FROM ${table} WHERE path = ?`, [path]);
      options.watchers?.delete(path);
      report.removed++;
    }
    if (former !== folder) db.run("INSERT OR REPLACE INTO meta (key, value) VALUES ('projects_dir', ?)", [folder]);
    if (typeof former === 'string' && former !== folder && report.removed > 0) report.formerProjectsDir = former;
    let done = 0;
    /** Listings and usage the workers read beside the parse, by path. */
    const ready = { listings: new Map<string, StampedRead>(), usage: new Map<string, StampedRead>() };
    /** What was written in this transaction of the followed files, remembered once it is committed. */
    const pending = new Map<WatchedFile, Written>();
    const commit = (then: string): void => {
      search.flush();
      db.exec(then);
      for (const [entry, { digest, keys }] of pending) {
        looseWritten.set(entry, digest);
        keysWritten.set(entry, keys);
      }
      pending.clear();
    };
    const write = async (w: Work, first: FileRows, { plan, parentPath }: Planned): Promise<void> => {
      // another file has the key: made again under one of its own
      const key = uniqueKey(db, first.key, w.file.path);
      const { fileRows, watchFile } = await parsing();
      const made = key === first.key ? first : await fileRows(watchFile(w.file.path), { ...plan, key });
      const entry = key === first.key ? options.watchers?.get(w.file.path) : undefined;
      // rows made from the last turn on are not the watcher's: what it wrote is no longer what the index holds
      const watched = entry !== undefined && made.tail === undefined ? entry : undefined;
      if (entry !== undefined && watched === undefined) {
        looseWritten.delete(entry);
        keysWritten.delete(entry);
      }
      const digest = watched === undefined ? undefined : looseDigest(made);
      const same = kept(w) && watched !== undefined && w.old?.session_key === key;
      const keys = writeFile(search, w, made, parentPath, {
        looseKept: same && looseWritten.get(watched) === digest,
        previous: same ? keysWritten.get(watched) : undefined,
      });
      if (watched !== undefined) pending.set(watched, { digest: digest as string, keys });
      if (first.stamped?.listing !== undefined) ready.listings.set(w.file.path, first.stamped.listing);
      if (first.stamped?.usage !== undefined) ready.usage.set(w.file.path, first.stamped.usage);
      // a kept watcher reads from where it stopped, which appends read from their last turn on left behind
      const from = kept(w) ? ((entry === undefined ? undefined : readTo.get(entry)) ?? w.old?.bytes_read ?? 0) : 0;
      report.bytesRead += made.tail?.bytes ?? w.stamp.size - from;
      if (watched !== undefined) readTo.set(watched, w.stamp.size);
      report[w.kind]++;
      report.read.push(w.file.path);
      report.turnsWritten += made.changed?.length ?? made.rows.turns.length;
      // counted here, not in the progress call: without `onProgress` its arguments are never evaluated
      done++;
      options.onProgress?.({
        files: done,
        totalFiles: total.files,
        bytes: report.bytesRead,
        totalBytes: total.bytes,
      });
      if (done % COMMIT_EVERY === 0) commit('COMMIT; BEGIN IMMEDIATE');
    };
    // main transcripts before subagents, so a subagent finds its parent's key and link
    for (const wave of [work.filter((w) => !isSubagent(w.file)), work.filter((w) => isSubagent(w.file))]) {
      // with workers, the largest files first and a few parsed ahead, each written as soon as it is parsed (a
      // long session never holds the writer up); in this thread, one at a time in the order of their first times
      // (the walk's among equal ones), so that block ids mostly go upwards: fewer blocks moved (`blockIds`)
      const queue = [...wave].sort(
        pool === undefined
          ? (a, b) => (a.firstT < b.firstT ? -1 : a.firstT > b.firstT ? 1 : 0)
          : (a, b) => b.stamp.size - a.stamp.size,
      );
      const ahead = pool === undefined ? 1 : workers + 2;
      const running = new Set<Promise<void>>();
      let writing = Promise.resolve();
      let failed = false;
      for (let next = 0; next < queue.length || running.size > 0;) {
        while (next < queue.length && running.size < ahead) {
          const w = queue[next++] as Work;
          const planned = await planOf(db, w);
          const made = fromLastTurn(db, w, planned.plan, report).then(
            (tail) =>
              tail ??
              (pool === undefined
                ? rowsHere(w, planned.plan, options)
                : pool.rows(planned.plan, listedFile(w.file.path, w.file.project))),
          );
          const job: Promise<void> = made
            .then((rows) => (writing = writing.then(() => (failed ? undefined : write(w, rows, planned)))))
            .catch((error: unknown) => {
              failed = true;
              throw error;
            })
            .finally(() => running.delete(job));
          job.catch(() => {}); // seen by the race below; a later failure after the first one is dropped
          running.add(job);
        }
        await Promise.race(running);
      }
    }
    // each stamped file's times as stamped (an unchanged one's mtime may have moved): next time its stat is enough
    for (const [path, stamp] of stamped)
      db.run('UPDATE files SET mtime_ms = ?, ctime_ms = ? WHERE path = ?', [stamp.mtime_ms, stamp.ctime_ms, path]);
    // the files rows written are the stamped files' (a removed file's stamped rows went with it)
    const changed = new Set(stamped.keys());
    await refreshListings(db, stamps, ready.listings, changed);
    await refreshUsageFiles(db, stamps, ready.usage, changed);
    commit('COMMIT');
  } catch (error) {
    db.exec('ROLLBACK');
    // their parsers went on past what the index holds: the next refresh reads those files whole
    for (const w of work) options.watchers?.delete(w.file.path);
    throw error;
  } finally {
    await pool?.close();
  }
  return report;
}

/** A file's plan, and its parent transcript when it is a subagent's. */
interface Planned {
  plan: FilePlan;
  parentPath: string | null;
}

/** What to make of a file's parse: its key when it is a subagent's (its parent's key and name), the link to its parent,
 * and what the index holds of its turns. */
async function planOf(db: Database, w: Work): Promise<Planned> {
  const path = w.file.path;
  const subagent = isSubagent(w.file);
  const parentPath = subagent ? await parentOf(w.file) : null;
  const parentKey = parentPath === null ? undefined : indexedKey(db, parentPath);
  // the spawning call's link, else (a 2.0.x flat agent file no call names) the parent session when it is indexed
  const parent =
    parentPath === null
      ? undefined
      : ((db.all('SELECT session_key AS key, key AS tool_use_id FROM subagents WHERE path = ?', [path])[0] as
          { key: string; tool_use_id: string } | undefined) ??
        (parentKey === undefined ? undefined : { key: parentKey, tool_use_id: null }));
  // only an append keeps the turns it left as they were: a file read again from its start (rewritten: its text may
  // have changed under the same uuids and turn shapes) or indexed by another parser version (only this one's rows are
  // known to be what it makes) has all its rows made again
  const old =
    w.old === undefined || w.kind !== 'appended' || w.old.parser_version !== PARSER_VERSION
      ? undefined
      : {
          key: w.old.session_key,
          // the end exact: a numeric `timestamp`'s fraction kept (15 digits would make the turn differ at each append)
          turns: jsonRows(db, ['key', 'atoms', exactReal('"end"'), 'ended'], 'FROM turns WHERE session_key = ?', [
            w.old.session_key,
          ]).map(([key, atoms, end, ended]) => ({
            key: String(key),
            atoms: Number(atoms),
            end: Number(end),
            ended: ended === 1,
          })),
        };
  const plan: FilePlan = {
    path,
    subagent,
    // a parent not indexed (an orphan subagent) lends its file's name
    ...(parentPath === null
      ? {}
      : { key: `${parentKey ?? basename(parentPath, '.jsonl')}/${basename(path, '.jsonl')}` }),
    ...(parent === undefined ? {} : { parent }),
    ...(old === undefined ? {} : { old }),
  };
  return { plan, parentPath };
}

/** An append read from the file's last turn on (`tailRows`); `undefined` when it is to be read whole (with why in the
 * report), or through its kept watcher. The rows a kept watcher makes are the whole session's (the changed turns
 * found among all), those of the tail its last turns' only; the watcher, left behind, reads what it missed when it is
 * next used. */
async function fromLastTurn(
  db: Database,
  w: Work,
  plan: FilePlan,
  report: RefreshReport,
): Promise<FileRows | undefined> {
  if (w.kind !== 'appended') return undefined;
  const { tailRows } = await import('./tail-rows.ts');
  const json = db.all('SELECT restart_json FROM restarts WHERE path = ?', [w.file.path])[0]?.['restart_json'];
  const made = await tailRows(db, w.file.path, w.stamp.size, plan, typeof json === 'string' ? json : undefined);
  if ('reason' in made) {
    report.readWhole.push({ path: w.file.path, reason: made.reason });
    return undefined;
  }
  report.fromLastTurn++;
  return made;
}

/** Parses a file in this thread: through its kept watcher when the file grew (only the new bytes are read); without
 * kept watchers, with its listing and usage as a worker reads them (`parsedRows`). */
async function rowsHere(w: Work, plan: FilePlan, options: RefreshOptions): Promise<FileRows> {
  if (options.watchers === undefined) {
    const { parsedRows } = await import('./stamped-reads.ts');
    return parsedRows(plan, listedFile(w.file.path, w.file.project));
  }
  const { fileRows, watchFile } = await parsing();
  let entry = options.watchers?.get(w.file.path);
  if (entry === undefined || w.kind !== 'appended') {
    entry = watchFile(w.file.path);
    options.watchers?.set(w.file.path, entry);
  }
  return fileRows(entry, plan);
}

/** The first `timestamp` in a file's first bytes (epoch ms), `Infinity` when they hold none (or not a date). */
function headTime(head: Buffer): number {
  const t = parseTimestamp(timestampText(head.toString('utf8')));
  return Number.isNaN(t) ? Infinity : t;
}

/** A digest of a file's rows of blocks of no turn. */
function looseDigest(made: FileRows): string {
  const hash = createHash('sha1');
  for (const b of made.rows.blocks) if (b.turn_key === null) hash.update(JSON.stringify(b));
  return hash.digest('hex');
}

/** Writes a file's rows (its blocks of no turn kept when `looseKept`; the old rows found by their keys when `previous`
 * holds them), links its subagents to it, and records its stamp.
 * @returns the keys of the rows the index now holds of the file, by turn */
function writeFile(
  search: SearchQueue,
  w: Work,
  made: FileRows,
  parentPath: string | null,
  { looseKept, previous }: { looseKept: boolean; previous: RowKeysByTurn | undefined },
): RowKeysByTurn {
  const { key, links } = made;
  const { db } = search;
  if (w.old !== undefined && w.old.session_key !== key) removeSessionRows(search, w.old.session_key);
  // a file new to the index has a key no other file has (`uniqueKey`): no rows of it to delete
  // read from the last turn on: the index's blocks of no turn are the file's, its old rows found by the restart's keys
  const before = made.tail?.previous ?? previous;
  const scope = {
    ...(made.changed === undefined ? {} : { changed: new Set(made.changed) }),
    fresh: w.old === undefined,
    looseBlocksKept: looseKept || made.tail !== undefined,
    ...(before === undefined ? {} : { previous: before }),
  };
  writeSessionRows(search, made.rows, scope);
  let keys: RowKeysByTurn;
  if (scope.changed === undefined) keys = rowKeysByTurn(made.rows);
  else if (before === undefined) keys = readRowKeys(db, key);
  else {
    keys = new Map(before);
    for (const turn of scope.changed) keys.delete(turn);
    for (const [turn, k] of rowKeysByTurn(made.rows, scope)) keys.set(turn, k);
  }
  for (const link of links)
    db.run('UPDATE sessions SET parent_key = ?, parent_tool_use_id = ? WHERE key = ?', [
      key,
      link.tool_use_id,
      link.key,
    ]);
  const s = w.stamp;
  const values: SqlValue[] = [
    w.file.path,
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
  // made with these rows, or none: a restart is never older than the rows it restarts
  if (made.restart === undefined) db.run('DELETE FROM restarts WHERE path = ?', [w.file.path]);
  else db.run('INSERT OR REPLACE INTO restarts (path, restart_json) VALUES (?, ?)', [w.file.path, made.restart]);
  return keys;
}

/**
 * The recorded stamp of a file whose stat is the one recorded: the same device, inode, size (all of it read), mtime
 * and ctime, its ctime settled when it was stamped (`FileStamp.ctime_ms`: a write since would have moved it; no
 * program sets a ctime), read by this parser version. Freshness never rests on mtime alone: a file rewritten with its
 * size and mtime kept has another ctime, and is stamped (hashes of its first and last bytes) as any other.
 * @param path the file
 * @param old its row, if indexed
 * @returns its recorded stamp, or `undefined` to stamp it
 */
function statUnchanged(path: string, old: FileRow | undefined): FileStamp | undefined {
  if (old === undefined || old.parser_version !== PARSER_VERSION || old.bytes_read !== old.size) return undefined;
  if (!statMatches(path, old)) return undefined; // stamped: changed, or cannot be read
  return old; // its stamp (a copy per file was 5,001 objects more to collect)
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
  // a settled ctime recorded and another now: the inode was written since (a `touch -r` puts the mtime back, not the
  // ctime), whatever the hashed bytes say
  const written = old.ctime_ms >= 0 && stamp.ctime_ms !== old.ctime_ms;
  if (!written && stamp.size === old.size && stamp.mtime_ms === old.mtime_ms && stamp.tail_hash === old.tail_hash)
    return 'unchanged';
  // the bytes where the last read stopped must still be there: else the file was rewritten
  const before = await hashAt(
    path,
    Math.max(0, old.bytes_read - TAIL_BYTES),
    Math.min(old.bytes_read, TAIL_BYTES),
  ).catch(() => '');
  // the same size with another mtime is read again: an edit in place that keeps the size (a secret masked with as many
  // `*`) leaves the first and last bytes as they were, and a `touch` costs one read
  return stamp.size > old.bytes_read && before === old.tail_hash ? 'appended' : 'reread';
}

/** The key wanted, unless another file already has it: then the key and a hash of the path (`key@1a2b3c4d`). */
function uniqueKey(db: Database, wanted: string, path: string): string {
  const other = db.all('SELECT path FROM files WHERE session_key = ? AND path <> ?', [wanted, path]);
  return other.length === 0 ? wanted : `${wanted}@${createHash('sha1').update(path).digest('hex').slice(0, 8)}`;
}

/** The key the index gave a file, if it is indexed. */
function indexedKey(db: Database, path: string): string | undefined {
  return db.all('SELECT session_key FROM files WHERE path = ?', [path])[0]?.['session_key'] as string | undefined;
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
