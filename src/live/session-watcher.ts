import { stat, type FileHandle } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { nestedAgents } from '../discover/list-claude-sessions.ts';
import { diagnostic, type Diagnostic } from '../diagnostics/diagnostic.ts';
import { CHAIN_TYPES, isCompactBoundary, type Entry } from '../graph/entry.ts';
import type { RecordRef, Session, Turn } from '../model/types.ts';
import { decodeLine } from '../read/decode-line.ts';
import { openRegular } from '../read/open-regular.ts';
import { LineDecoder } from '../read/line-decoder.ts';
import { parseLine } from '../read/parse-line.ts';
import { postalLogPath, postalResolver, readPostalLog } from '../romp-home/postal-log.ts';
import { listSessions, registryFolder, resolveSession } from '../romp-home/registry.ts';
import { readIdleSpans, stateLogPath, type IdleSpan } from '../romp-home/state-log.ts';
import type { ResolvePeer } from '../tree/derive-author.ts';
import { insertIdle } from '../tree/insert-idle.ts';
import { buildSessionState, cwdOf, pathItem, refOf, type SessionState } from '../session/build-session.ts';
import { assemble, newFileRead, takeRecord, uniqueFsid, type FileRead } from '../session/collect-files.ts';
import type { ParseOptions } from '../session/parse-session.ts';
import { stepTurns, finishTurns } from '../tree/build-turns.ts';

/** One file being followed: what was read of it, and from which byte on to read next. */
interface Tail {
  read: FileRead;
  offset: number;
  ino: number;
  decoder: LineDecoder;
  /** The last bytes read (up to 64), to notice a file rewritten in place to the same or a larger size. */
  last: Buffer;
}

/** What an update changed. */
export interface WatchUpdate {
  session: Session;
  /** Ids of the turns that are new or whose atoms, `end` or `ended` changed (removed ones too). */
  changed: string[];
  /** Diagnostics of the bytes read by this update. */
  diagnostics: Diagnostic[];
  /** Subagent transcripts (`<dir>/<fsid>/subagents/**\/agent-*.jsonl`) that appeared since the last update. */
  newSubagents: string[];
}

/** Records that only need appending; other metadata (titles, checkpoints) re-resolves the session. */
const PLAIN_METADATA = new Set(['file-history-snapshot', 'mode', 'permission-mode', 'attribution-snapshot', 'file-history-delta']);

/**
 * Keeps the Session of transcripts that are still being written current, at a cost proportional to
 * the bytes appended (seed: the file substrate, live).
 *
 * ```ts
 * const watcher = new SessionWatcher(['~/.claude/projects/p/<id>.jsonl']);
 * for (;;) { const { session, changed } = await watcher.update(); render(changed); await sleep(100); }
 * ```
 *
 * - Each update reads each file from the byte it stopped at; a line without its newline yet is held
 *   back (not a diagnostic) until it is complete.
 * - A file that shrank or was replaced (another inode) is read again from the start (`FILE_REPLACED`).
 * - With `rompUuid` and `rompHome` and no files, the files come from the registry, re-read at every
 *   update, so a resume file registered later is followed too.
 * - Subagent transcripts appearing under `<dir>/<fsid>/subagents/` are reported in `newSubagents`.
 * - Appends that only extend the active path (the common case: each new line's parent is the leaf) step
 *   the turn builder on from where it was; anything else (a rewind, a compaction, a checkpoint, a title,
 *   a phantom parent, parallel tool results, a line of a response that had lines put back, a new or
 *   replaced file) re-resolves the session from what is already read, without reading it again.
 * - After every update the session equals what `parseSession` gives for the same bytes (whole lines).
 *   `records` is shared between snapshots and only appended to.
 *
 * - With a romp home, idle atoms from romp's state logs are applied to every snapshot, an open span
 *   ending at the update's time (`options.now` when given, for tests).
 */
export class SessionWatcher {
  readonly #files: string[];
  readonly #options: ParseOptions;
  readonly #tails = new Map<string, Tail>();
  readonly #fsids = new Set<string>();
  readonly #subagents = new Set<string>();
  #state: SessionState | undefined;
  /** The session handed out: `#state`'s, with idle atoms when there is a romp home. */
  #snapshot: Session | undefined;
  /** Postal senders as the last re-resolve read them; the fast path authors with the same. */
  #resolvePeer: ResolvePeer = () => null;
  /** Stamp of the postal log and the registry folder when they were last read. */
  #postalStamp: string | undefined;
  /** Idle spans of each state log, with the stamp of the file they were read from. */
  readonly #idle = new Map<string, { stamp: string; spans: IdleSpan[] }>();

  /**
   * @param files transcript paths (empty with `options.rompUuid` + `options.rompHome`: the registry's)
   * @param options as for `parseSession`
   */
  constructor(files: string[], options: ParseOptions = {}) {
    this.#files = files;
    this.#options = options;
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
   * Reads what was appended since the last update and brings the session up to date.
   * @returns the session, the ids of changed turns, and the diagnostics of the new bytes
   */
  async update(): Promise<WatchUpdate> {
    const diagnostics: Diagnostic[] = [];
    const on = (d: Diagnostic): void => {
      diagnostics.push(d);
    };
    let rebuild = this.#state === undefined;
    for (const path of await this.#paths()) {
      if (!this.#tails.has(path)) {
        this.#tails.set(path, this.#newTail(path, uniqueFsid(path, this.#fsids, on)));
        rebuild = true;
      }
    }
    const grown: Array<{ tail: Tail; entries: number; refs: number }> = [];
    for (const tail of this.#tails.values()) {
      const before = { entries: tail.read.entries.length, refs: tail.read.refs.length, checkpoints: tail.read.checkpoints.length };
      const replaced = await this.#readNew(tail, on);
      if (replaced) rebuild = true;
      if (tail.read.checkpoints.length !== before.checkpoints) rebuild = true;
      if (tail.read.entries.length !== before.entries || tail.read.refs.length !== before.refs) grown.push({ tail, ...before });
    }
    const newSubagents = await this.#findSubagents();
    const home = this.#options.rompHome;
    if (home !== undefined) {
      // a new postal message or registry entry can change authors anywhere: re-resolve with them
      const stamp = `${await stampOf(postalLogPath(home))}|${await stampOf(registryFolder(home))}`;
      if (stamp !== this.#postalStamp) rebuild = true;
      this.#postalStamp = stamp;
    }
    const old = this.#snapshot?.turns ?? [];
    const extended = !rebuild && grown.length === 1 && this.#extend(grown[0] as { tail: Tail; entries: number; refs: number });
    if (!extended && (rebuild || grown.length > 0)) await this.#rebuild(on);
    const session = await this.#withIdle((this.#state as SessionState).session, on);
    this.#snapshot = session;
    return { session, changed: changedTurns(old, session.turns), diagnostics, newSubagents };
  }

  /** With a romp home, the idle atoms of romp's state logs (a log is read again only when it changed). */
  async #withIdle(session: Session, on: (d: Diagnostic) => void): Promise<Session> {
    const home = this.#options.rompHome;
    if (home === undefined) return session;
    const spans: IdleSpan[] = [];
    for (const { fsid } of session.files) {
      const stamp = await stampOf(stateLogPath(home, fsid));
      let known = this.#idle.get(fsid);
      if (known?.stamp !== stamp) {
        known = { stamp, spans: await readIdleSpans(home, fsid, on) };
        this.#idle.set(fsid, known);
      }
      spans.push(...known.spans);
    }
    // an open span ends now: applied at every update, read or not
    return insertIdle(session, spans, this.#options.now ?? Date.now());
  }

  async #findSubagents(): Promise<string[]> {
    const found: string[] = [];
    for (const tail of this.#tails.values()) {
      const { path, fsid } = tail.read.file;
      for (const agent of await nestedAgents(join(dirname(path), fsid))) {
        if (!this.#subagents.has(agent)) {
          this.#subagents.add(agent);
          found.push(agent);
        }
      }
    }
    return found;
  }

  async #paths(): Promise<string[]> {
    const { rompUuid, rompHome } = this.#options;
    if (this.#files.length > 0 || rompUuid === undefined || rompHome === undefined) return this.#files;
    return (await resolveSession(rompHome, rompUuid))?.files.map((f) => f.path) ?? [];
  }

  #newTail(path: string, fsid: string): Tail {
    const tail: Tail = { read: newFileRead({ fsid, path }), offset: 0, ino: 0, decoder: undefined as unknown as LineDecoder, last: Buffer.alloc(0) };
    tail.decoder = new LineDecoder(
      (buf, start, end, line, byteOffset) => {
        const text = decodeLine(buf, start, end, path, line, byteOffset, (d) => this.#pending.push(d));
        const result = parseLine(text, path, line, byteOffset, this.#options.maxDepth);
        for (const record of result.records) takeRecord(tail.read, record, line, byteOffset, (d) => this.#pending.push(d));
        for (const d of result.diagnostics) this.#pending.push(d);
      },
      (line, byteOffset, length) => this.#pending.push(diagnostic('LINE_TOO_LONG', `line of ${length} bytes is over the cap; skipped`, { file: path, line, byteOffset })),
      this.#options.maxLineBytes,
    );
    return tail;
  }

  /** Diagnostics raised while decoding, handed to the running update. */
  #pending: Diagnostic[] = [];

  /**
   * Reads a file's new bytes; true when it had to start over (shrunk or replaced). The file is opened
   * once and its size and inode read from the open handle, so a file deleted, recreated or made
   * unreadable meanwhile is a `FILE_UNREADABLE` for this update (read again at the next), never a throw.
   */
  async #readNew(tail: Tail, on: (d: Diagnostic) => void): Promise<boolean> {
    const path = tail.read.file.path;
    let replaced = false;
    let opened: Awaited<ReturnType<typeof openRegular>> | undefined;
    try {
      opened = await openRegular(path);
      const { handle, info } = opened;
      if ((tail.ino !== 0 && info.ino !== tail.ino) || info.size < tail.offset || !(await sameEnd(handle, tail))) {
        on(diagnostic('FILE_REPLACED', `file ${info.size < tail.offset ? 'shrank' : 'was replaced or rewritten'}; read again from the start`, { file: path }));
        Object.assign(tail, this.#newTail(path, tail.read.file.fsid));
        replaced = true;
      }
      tail.ino = info.ino;
      const buffer = Buffer.allocUnsafe(Math.max(0, Math.min(info.size - tail.offset, 1024 * 1024)));
      while (tail.offset < info.size) {
        const { bytesRead } = await handle.read(buffer, 0, Math.min(buffer.length, info.size - tail.offset), tail.offset);
        if (bytesRead === 0) break;
        tail.decoder.push(buffer.subarray(0, bytesRead));
        tail.offset += bytesRead;
        tail.last = Buffer.from(Buffer.concat([tail.last, buffer.subarray(Math.max(0, bytesRead - 64), bytesRead)]).subarray(-64));
      }
    } catch (error) {
      on(diagnostic('FILE_UNREADABLE', `cannot read: ${(error as Error).message}`, { file: path }));
    } finally {
      await opened?.handle.close();
    }
    for (const d of this.#pending) on(d);
    this.#pending = [];
    return replaced;
  }

  async #rebuild(on: (d: Diagnostic) => void): Promise<void> {
    const reads = [...this.#tails.values()].map((t) => t.read);
    const collected = assemble(reads);
    const options = { ...this.#options };
    const home = options.rompHome;
    if (home !== undefined) options.resolvePeer = postalResolver(await readPostalLog(home, on), await listSessions(home, on));
    const entry = home !== undefined && options.rompUuid !== undefined ? await resolveSession(home, options.rompUuid) : undefined;
    const state = buildSessionState(collected, options, on);
    this.#resolvePeer = options.resolvePeer ?? (() => null);
    if (entry !== undefined) {
      state.session = { ...state.session, name: entry.name || state.session.name, dir: entry.dir || state.session.dir, color: entry.color || state.session.color };
    }
    this.#state = state;
  }

  /**
   * The fast path: applies new lines of the last file when each only extends the active path.
   * Returns false (and changes nothing) when it cannot, so the caller re-resolves instead.
   */
  #extend(grown: { tail: Tail; entries: number; refs: number }): boolean {
    const state = this.#state as SessionState;
    const { tail } = grown;
    const files = state.session.files;
    const leaf = state.path.leaf;
    // the fast path appends after the leaf: lines put back after it (parallel results) or a session that
    // had no time yet (leading atoms take the first known time) need the full resolution
    if (files.at(-1)?.fsid !== tail.read.file.fsid || leaf === undefined || state.index.ordered.at(-1) !== leaf) return false;
    if (state.path.entries.at(-1) !== leaf || !state.timesKnown) return false;
    const entries = tail.read.entries.slice(grown.entries);
    const refs = tail.read.refs.slice(grown.refs);
    if (refs.some((r) => CHAIN_TYPES.has(r.type) || !PLAIN_METADATA.has(r.type))) return false;
    let tip = leaf;
    const batch = new Set<string>();
    for (const e of entries) {
      // (a row of a type this reader does not know is never the leaf: the full resolution places it)
      // (a line of a response that had lines put back moves them after it: the full resolution places them)
      const simple = CHAIN_TYPES.has(e.type) && e.type !== 'progress' && e.parent === tip.uuid && e.isSidechain === tip.isSidechain && !isCompactBoundary(e) && !state.index.byUuid.has(e.uuid) && !batch.has(e.uuid) && (e.messageId === undefined || !state.path.putBack.has(e.messageId));
      batch.add(e.uuid);
      // atoms generated from queue operations move past the lines that follow them: re-resolve
      if (!simple || Number.isNaN(e.t) || state.hasGenerated) return false;
      tip = e;
    }
    const base = leaf.seq - leaf.fileSeq; // where the last file's records start in the session's order
    const ctx = { rompUuid: state.rompUuid, resolvePeer: this.#resolvePeer };
    const records: RecordRef[] = state.session.records;
    const added: RecordRef[] = [...refs];
    let turns = state.turns;
    for (const e of entries) {
      e.seq = base + e.fileSeq;
      e.pos = state.index.ordered.push(e) - 1;
      state.index.byUuid.set(e.uuid, e);
      state.path.entries.push(e);
      state.path.onPath.add(e);
      state.path.leaf = e;
      const item = pathItem(e, ctx);
      if (item === undefined || item.type === 'turn_end') added.push(refOf(e, true));
      if (item === undefined) continue;
      turns = stepTurns(turns, item, e.type === 'attachment');
    }
    // the new lines all follow every earlier one in the same file: their line order is the records' order
    for (const r of added.sort((a, b) => a.line - b.line)) records.push(r);
    state.turns = turns;
    state.session = {
      ...state.session,
      turns: finishTurns(turns, state.rompUuid),
      dir: cwdOf(state.path.entries) || state.session.dir,
      leafFsid: (state.path.leaf as Entry).fsid,
    };
    return true;
  }
}

/** Whether the bytes just before a tail's read offset are still the ones read last time. */
async function sameEnd(handle: FileHandle, tail: Tail): Promise<boolean> {
  if (tail.last.length === 0) return true;
  const now = Buffer.alloc(tail.last.length);
  const { bytesRead } = await handle.read(now, 0, now.length, tail.offset - tail.last.length);
  return bytesRead === now.length && now.equals(tail.last);
}

/** A file's size, modification time and inode as one string (`-` when it is missing): what changed it. */
async function stampOf(path: string): Promise<string> {
  const info = await stat(path).catch(() => undefined);
  return info === undefined ? '-' : `${info.size}:${info.mtimeMs}:${info.ino}`;
}

/** Ids of turns that are new, gone, or whose atoms, end or ended differ. */
function changedTurns(before: Turn[], after: Turn[]): string[] {
  // finished turns are the same objects from one snapshot to the next: skip the common prefix
  let same = 0;
  while (same < before.length && same < after.length && before[same] === after[same]) same++;
  if (same === before.length && same === after.length) return [];
  const old = new Map(before.slice(same).map((t) => [t.id, t]));
  after = after.slice(same);
  const changed: string[] = [];
  for (const turn of after) {
    const was = old.get(turn.id);
    if (was === undefined || was.atoms.length !== turn.atoms.length || was.ended !== turn.ended || was.end !== turn.end) changed.push(turn.id);
    old.delete(turn.id);
  }
  for (const id of old.keys()) changed.push(id);
  return changed;
}
