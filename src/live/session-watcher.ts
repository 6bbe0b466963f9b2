import { closeSync, readSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { nestedAgents } from '../discover/list-claude-sessions.ts';
import { diagnostic, type Diagnostic } from '../diagnostics/diagnostic.ts';
import type { Session, Turn } from '../model/types.ts';
import { openRegularSync } from '../read/open-regular.ts';
import type { ParseOptions } from '../session/parse-session.ts';
import { SessionBuilder, type Resolution, type RestartPoint } from '../session/session-builder.ts';
import { errorReason } from '../diagnostics/error-reason.ts';

/** One file being followed: from which byte on to read next, and what it was. */
interface Tail {
  offset: number;
  ino: number;
  /** The last bytes read (up to 64), to notice a file rewritten in place to the same or a larger size. */
  last: Buffer;
  /** Why the file could not be read at the last update (said once, until it is read again). */
  unreadable?: string | undefined;
}

/** What an update changed. */
export interface WatchUpdate {
  session: Session;
  /** Ids of the turns that are new or whose atoms, `end` or `ended` changed (removed ones too). */
  changed: string[];
  /** Ids of the turns that are gone (a rewind, a replaced file): in `changed` too. */
  removed: string[];
  /** Diagnostics of the bytes read by this update. */
  diagnostics: Diagnostic[];
  /**
   * Those of `diagnostics` given while the session was brought up to date, after the bytes were read: at a `full`
   * resolution every one of the whole session's graph stage (they replace those of the last full one), else those of
   * the lines stepped. The others are the bytes' own (decoding, a replaced or unreadable file).
   */
  sessionDiagnostics: Diagnostic[];
  /** Subagent transcripts (`<dir>/<fsid>/subagents/**\/agent-*.jsonl`) that appeared since the last update. */
  newSubagents: string[];
  /**
   * How the session was brought up to date: `none` (nothing new), `open-turn` (only the appended lines
   * were stepped), `full` (resolved again from every line read; see `SessionBuilder`).
   */
  resolution: Resolution;
}

const DEFAULT_CHUNK_BYTES = 1024 * 1024;

/**
 * Keeps the Session of transcripts that are still being written current, at a cost proportional to
 * the bytes appended (seed: the file substrate, live): it tails the files into one `SessionBuilder`,
 * the same one `parseSession` drives over whole files.
 *
 * ```ts
 * const watcher = new SessionWatcher(['~/.claude/projects/p/<id>.jsonl']);
 * for (;;) { const { session, changed } = await watcher.update(); render(changed); await sleep(100); }
 * ```
 *
 * - Each update reads each file from the byte it stopped at, `chunkBytes` at a time; a line without its
 *   newline yet is held back (not a diagnostic) until it is complete.
 * - A file that shrank or was replaced (another inode) is read again from the start (`FILE_REPLACED`).
 * - With `rompUuid` and `rompHome` and no files, the files come from the registry, re-read at every
 *   update, so a resume file registered later is followed too; past `maxFiles` files, the others are
 *   `TOO_MANY_FILES` (once each) and not read.
 * - Subagent transcripts appearing under `<dir>/<fsid>/subagents/` are reported in `newSubagents`.
 * - Appends that extend the active path where the open turn is step the turn builder on from where it
 *   was (appends that move the open response's put-back lines step that response again); a real
 *   change of path (a rewind, a compaction, a checkpoint that moves the leaf, a new or replaced file)
 *   re-resolves the session from what is already read, without reading it again.
 * - After every update the session equals what `parseSession` gives for the same bytes (whole lines).
 *   `records` is shared between snapshots and only appended to (a progress row's `onPath` turns true
 *   when a line appended later hangs on it).
 * - With a romp home, idle atoms from romp's state logs are applied to every snapshot, an open span
 *   ending at the update's time (`options.now` when given, for tests).
 */
export class SessionWatcher {
  readonly #files: string[];
  readonly #options: ParseOptions;
  readonly #builder: SessionBuilder;
  readonly #tails = new Map<string, Tail>();
  readonly #subagents = new Set<string>();
  #snapshot: Session | undefined;

  /**
   * @param files transcript paths (empty with `options.rompUuid` + `options.rompHome`: the registry's)
   * @param options as for `parseSession`
   */
  constructor(files: string[], options: ParseOptions = {}) {
    this.#files = files;
    this.#options = options;
    this.#builder = new SessionBuilder(options);
  }

  /** The latest session, `undefined` before the first update. */
  get session(): Session | undefined {
    return this.#snapshot;
  }

  /** Subagent transcripts found so far. */
  get subagents(): string[] {
    return [...this.#subagents].sort();
  }

  /** The files followed, in the order they were first seen. */
  get files(): string[] {
    return [...this.#tails.keys()];
  }

  /**
   * What was read of a followed file (`SessionBuilder.linesRead`): its lines completed, bytes read, and bytes of a
   * last line held back until its newline.
   * @param path a followed file
   * @returns the counts, or `undefined` when the file is not followed
   */
  linesRead(path: string): { lines: number; bytes: number; pending: number } | undefined {
    return this.#builder.linesRead(path);
  }

  /**
   * Where a builder in another process can start reading the one file followed to rebuild the session's last turn
   * (`SessionBuilder.restartPoint`).
   * @param refused told why there is none
   * @returns the point, or `undefined`
   */
  restartPoint(refused?: (why: string) => void): RestartPoint | undefined {
    return this.#builder.restartPoint(refused);
  }

  /** How many updates resolved the session from every line read (the first included). */
  get fullResolves(): number {
    return this.#builder.fullResolves;
  }

  /**
   * Reads what was appended since the last update and brings the session up to date.
   * @returns the session, the ids of changed and removed turns, and the diagnostics of the new bytes
   */
  async update(): Promise<WatchUpdate> {
    const diagnostics: Diagnostic[] = [];
    const on = (d: Diagnostic): void => {
      diagnostics.push(d);
    };
    const paths = this.#files.length > 0 ? this.#files : await this.#builder.home.files();
    for (const path of paths) {
      if (!this.#tails.has(path) && this.#builder.addFile(path, on))
        this.#tails.set(path, { offset: 0, ino: 0, last: Buffer.alloc(0) });
    }
    for (const [path, tail] of this.#tails) this.#readNew(path, tail, on);
    const newSubagents = await this.#findSubagents();
    const old = this.#snapshot?.turns ?? [];
    const read = diagnostics.length;
    const session = await this.#builder.session(on);
    this.#snapshot = session;
    const { changed, removed } = changedTurns(old, session.turns);
    return {
      session,
      changed,
      removed,
      diagnostics,
      sessionDiagnostics: diagnostics.slice(read),
      newSubagents,
      resolution: this.#builder.resolution,
    };
  }

  async #findSubagents(): Promise<string[]> {
    const found: string[] = [];
    for (const path of this.#tails.keys()) {
      const dir = join(dirname(path), this.#builder.fsidOf(path) as string);
      // most sessions have none: one system call on this thread, no walk through the thread pool
      if (statSync(join(dir, 'subagents'), { throwIfNoEntry: false }) === undefined) continue;
      for (const agent of await nestedAgents(dir)) {
        if (!this.#subagents.has(agent)) {
          this.#subagents.add(agent);
          found.push(agent);
        }
      }
    }
    return found;
  }

  /**
   * Feeds a file's new bytes to the builder; a file that shrank or was replaced is fed again from its
   * start. The file is opened once and its size and inode read from the open descriptor, so a file deleted,
   * recreated or made unreadable meanwhile is a `FILE_UNREADABLE` for this update (read again at the
   * next), never a throw; said once while the reason stays the same (a deleted file is not reported at
   * every update until it comes back). The reads are synchronous (`openRegularSync`): an append is a few system calls
   * of a few µs, which through the thread pool each waited for a pool thread (ms on a loaded machine:
   * most of an update's time); the bytes are parsed on this thread anyway.
   */
  #readNew(path: string, tail: Tail, on: (d: Diagnostic) => void): void {
    let fd: number | undefined;
    try {
      const opened = openRegularSync(path);
      fd = opened.fd;
      const { info } = opened;
      if ((tail.ino !== 0 && info.ino !== tail.ino) || info.size < tail.offset || !sameEnd(fd, tail)) {
        on(
          diagnostic(
            'FILE_REPLACED',
            `file ${info.size < tail.offset ? 'shrank' : 'was replaced or rewritten'}; read again from the start`,
            { file: path },
          ),
        );
        this.#builder.reset(path);
        Object.assign(tail, { offset: 0, last: Buffer.alloc(0) });
      }
      tail.ino = info.ino;
      const chunkBytes = Math.max(2, this.#options.chunkBytes ?? DEFAULT_CHUNK_BYTES);
      const buffer = Buffer.allocUnsafe(Math.max(0, Math.min(info.size - tail.offset, chunkBytes)));
      while (tail.offset < info.size) {
        const bytesRead = readSync(fd, buffer, 0, Math.min(buffer.length, info.size - tail.offset), tail.offset);
        if (bytesRead === 0) break;
        this.#builder.push(path, buffer.subarray(0, bytesRead), on);
        tail.offset += bytesRead;
        tail.last = Buffer.from(
          Buffer.concat([tail.last, buffer.subarray(Math.max(0, bytesRead - 64), bytesRead)]).subarray(-64),
        );
      }
      tail.unreadable = undefined;
    } catch (error) {
      const reason = `cannot read: ${errorReason(error)}`;
      if (reason !== tail.unreadable) on(diagnostic('FILE_UNREADABLE', reason, { file: path }));
      tail.unreadable = reason;
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
  }
}

/** Whether the bytes just before a tail's read offset are still the ones read last time. */
function sameEnd(fd: number, tail: Tail): boolean {
  if (tail.last.length === 0) return true;
  const now = Buffer.alloc(tail.last.length);
  const bytesRead = readSync(fd, now, 0, now.length, tail.offset - tail.last.length);
  return bytesRead === now.length && now.equals(tail.last);
}

/** Ids of turns that are new, gone, or whose atoms, end or ended differ; and of those gone. */
function changedTurns(before: Turn[], after: Turn[]): { changed: string[]; removed: string[] } {
  // finished turns are the same objects from one snapshot to the next: skip the common prefix
  let same = 0;
  while (same < before.length && same < after.length && before[same] === after[same]) same++;
  if (same === before.length && same === after.length) return { changed: [], removed: [] };
  const old = new Map(before.slice(same).map((t) => [t.id, t]));
  after = after.slice(same);
  const changed: string[] = [];
  for (const turn of after) {
    const was = old.get(turn.id);
    if (was === undefined || was.atoms.length !== turn.atoms.length || was.ended !== turn.ended || was.end !== turn.end)
      changed.push(turn.id);
    old.delete(turn.id);
  }
  const removed = [...old.keys()];
  return { changed: [...changed, ...removed], removed };
}
