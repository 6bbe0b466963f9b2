import type { Diagnostic, OnDiagnostic } from '../diagnostics/diagnostic.ts';
import type { Entry } from '../graph/entry.ts';
import { extendPath } from '../graph/extend-path.ts';
import type { Atom, RecordRef, Session } from '../model/types.ts';
import type { RawRecord } from '../read/parse-line.ts';
import { RecordDecoder, type OnRecord, type RecordDecodeOptions } from '../read/record-decoder.ts';
import { finishTurns, stepTurns, type TurnEndMarker, type TurnsState } from '../tree/build-turns.ts';
import { absorbedLine, pathItem } from '../tree/path-item.ts';
import {
  buildSessionState,
  lastString,
  placeGenerated,
  refOf,
  sessionName,
  sessionUuid,
  summaryFor,
  type BuildOptions,
  type OpenTurnStart,
  type SessionState,
} from './build-session.ts';
import {
  assemble,
  DEFAULT_MAX_FILES,
  newFileRead,
  takeRecord,
  tooManyFiles,
  uniqueFsid,
  type FileRead,
  type QueueOperation,
} from './collect-files.ts';
import type { QueueBase, QueueReplay } from './queued-prompts.ts';
import { HomeContext } from './home-context.ts';
import { holdShape } from '../model/hold-shape.ts';

/** Options of a `SessionBuilder`: how bytes are decoded, how the session is built, how many files, romp's home. */
export interface BuilderOptions extends RecordDecodeOptions, BuildOptions {
  /** Files of one session read at most; the rest are `TOO_MANY_FILES` diagnostics. Default 1000. */
  maxFiles?: number;
  /** romp's home folder (see `ParseOptions.rompHome`). */
  rompHome?: string;
  /** The current time (epoch ms), for an idle span still open; default `Date.now()`. */
  now?: number;
  /** Sees every record decoded, before the model takes it (`romp index` counts usage from the same records). */
  onRecord?: OnRecord;
  /**
   * What precedes the first byte fed, when the builder is fed one file from the middle (`romp index` in a new process
   * reads an appended file from its last turn on: docs/index.md, "Freshness"); see {@link BuilderBase}.
   */
  base?: BuilderBase;
}

/**
 * What a builder fed one file from `byteOffset` on is told of the file before it (a `restartPoint` of an earlier
 * builder over the file). Records and diagnostics are numbered as in the whole file (lines and bytes after the base's);
 * the first line fed hangs on `parent`, written before it: the walk starts there, with no `HISTORY_GAP` for it; `dir`,
 * `gitBranch` and `summary` stand while no line of the path fed names one, and the titles while no line fed is one of
 * their kind; the queue replay starts from `queue`. Anything else before the base (an older line a fed line hangs on, a
 * checkpoint) is not known: such a line is a phantom parent (`PHANTOM_PARENT`, `HISTORY_GAP`), and the caller, who must
 * get what a whole read gives, reads the file whole instead. A builder with a base resolves the whole of what it was
 * fed at every `session()` (no `open-turn` step).
 */
export interface BuilderBase {
  /** Lines of the file before the first byte fed. */
  lines: number;
  /** Offset of the first byte fed. */
  byteOffset: number;
  /** The uuid the first line fed names as its parent (`parentUuid`: a path line, or a progress row over one). */
  parent: string;
  /** The session's identity (`BuildOptions.rompUuid` when that is not given). */
  rompUuid: string;
  /** The `cwd` of the path line nearest the first line fed (`""`: none). */
  dir: string;
  gitBranch?: string;
  /** The `summary` title of the path before the first line fed. */
  summary?: string;
  customTitle?: string;
  aiTitle?: string;
  /** The queue replay's state before the first line fed (`QueueReplay.at`): absent, nothing waiting or generated. */
  queue?: QueueBase;
}

/** Where a new builder can start reading a session's file to rebuild its last turn (`SessionBuilder.restartPoint`). */
export interface RestartPoint extends BuilderBase {
  /** The last turn's id (`Turn.id`), whose first atom's line is at `byteOffset`. */
  turn: string;
}

/** How the last `session()` call brought the session up to date. */
export type Resolution = 'none' | 'open-turn' | 'full';

/** One file being fed: its decoder, what was read of it, and how much of that the session holds. */
interface FileFeed {
  read: FileRead;
  decoder: RecordDecoder;
  /** Counts of `read`'s lists when the session was last brought up to date. */
  seen: { entries: number; refs: number; checkpoints: number; queue: number; first: number };
}

/** Record types whose appending changes nothing but the records (and, for titles, the name). */
const TITLE_TYPES: ReadonlySet<string> = new Set(['custom-title', 'ai-title', 'summary']);

/**
 * The one place where bytes become records and records a Session (seed: "One parse produces the whole
 * tree … No second parser"). Fed bytes per file (`push`), told when a file is complete (`end`) or was
 * replaced (`reset`), it owns each file's record decoder (`RecordDecoder`: BOM, UTF-16, NUL, glued lines,
 * size cap, `skipUnread`), the collected lines, the graph index, the active path, the turn builder's
 * state and romp's home layer (`HomeContext`). `parseSession` drives it once over whole files; the live
 * `SessionWatcher` tails files into it.
 *
 * `session()` brings the Session up to date. When every line since the last call was appended to the
 * session's last file and extends the active path where the open turn is (`extendPath`: lines hanging
 * on the leaf, over progress rows or not, tool results of parallel calls, sidechain lines, metadata,
 * queue operations that generate nothing, checkpoints that keep the leaf, titles), only those lines are
 * stepped through the turn builder (`open-turn`); when they move lines of the open response put back
 * (`resolveOpenResponse`), that response's lines are stepped again from the turn state before it
 * (`open-turn` too); anything else (a rewind, a compaction, a checkpoint
 * that moves the leaf, a new, grown earlier or replaced file, new postal senders) resolves the session
 * again from what is already read (`full`), without reading it again. Either way the Session equals what
 * a one-shot parse of the same complete lines gives.
 *
 * ```ts
 * const builder = new SessionBuilder({ view: 'full' });
 * builder.addFile(path, on);
 * builder.push(path, bytes, on);
 * builder.end(path, on);
 * const session = await builder.session(on);
 * ```
 */
export class SessionBuilder {
  readonly #options: BuilderOptions;
  readonly #feeds = new Map<string, FileFeed>();
  readonly #fsids = new Set<string>();
  /** Paths refused for `maxFiles`: reported once. */
  readonly #refused = new Set<string>();
  /** Where the running call's diagnostics go (the decoders report through it). */
  #on: OnDiagnostic = () => {};
  #state: SessionState | undefined;
  /** A file was added or replaced since the last resolve. */
  #stale = true;
  /** Where each file's records start in the session's order, as of the last full resolve. */
  #offsets = new Map<FileRead, number>();
  readonly #home: HomeContext;
  #resolution: Resolution = 'none';
  #full = 0;

  /** @param options decoding, view, rompUuid, maxFiles, romp home */
  constructor(options: BuilderOptions = {}) {
    this.#options = options.base === undefined ? options : { rompUuid: options.base.rompUuid, ...options };
    this.#home = new HomeContext(options.rompHome, this.#options.rompUuid, options.now);
  }

  /** romp's home layer of this session. */
  get home(): HomeContext {
    return this.#home;
  }

  /** How the last `session()` call brought the session up to date. */
  get resolution(): Resolution {
    return this.#resolution;
  }

  /** How many times the session was resolved from all its lines (the first build included). */
  get fullResolves(): number {
    return this.#full;
  }

  /** The files fed, in the order they were added. */
  get files(): string[] {
    return [...this.#feeds.keys()];
  }

  /**
   * What was fed of a file: its lines completed, bytes pushed, and bytes held for a line not yet complete.
   * @param path an added file
   * @returns the counts, or `undefined` when the file was not added
   */
  linesRead(path: string): { lines: number; bytes: number; pending: number } | undefined {
    const decoder = this.#feeds.get(path)?.decoder;
    return decoder === undefined
      ? undefined
      : { lines: decoder.lineCount, bytes: decoder.bytes, pending: decoder.pendingBytes };
  }

  /** The fsid given to each file, by path. */
  fsidOf(path: string): string | undefined {
    return this.#feeds.get(path)?.read.file.fsid;
  }

  /**
   * Adds a file of the session: gives it its fsid (`FSID_COLLISION`, info, when another file has its
   * name). Past `maxFiles` files, the file is refused (`TOO_MANY_FILES`, once per path).
   * @param path the file
   * @param onDiagnostic receives those diagnostics
   * @returns whether the file is fed (false when refused); true when it already was
   */
  addFile(path: string, onDiagnostic: OnDiagnostic): boolean {
    if (this.#feeds.has(path)) return true;
    const maxFiles = this.#options.maxFiles ?? DEFAULT_MAX_FILES;
    if (this.#feeds.size >= maxFiles) {
      if (!this.#refused.has(path)) onDiagnostic(tooManyFiles(path, maxFiles));
      this.#refused.add(path);
      return false;
    }
    this.#feeds.set(path, this.#newFeed(path, uniqueFsid(path, this.#fsids, onDiagnostic)));
    this.#stale = true;
    return true;
  }

  /**
   * Feeds a file's next bytes (its lines are taken as they complete).
   * @param path an added file
   * @param chunk the bytes; not retained
   * @param onDiagnostic receives the diagnostics of the lines completed
   */
  push(path: string, chunk: Buffer, onDiagnostic: OnDiagnostic): void {
    const feed = this.#feeds.get(path);
    if (feed === undefined) return;
    this.#on = onDiagnostic;
    feed.decoder.push(chunk);
  }

  /**
   * The file is complete: its last line counts even without a `\n` (a live file is never ended).
   * @param path an added file
   * @param onDiagnostic receives the last line's diagnostics
   */
  end(path: string, onDiagnostic: OnDiagnostic): void {
    const feed = this.#feeds.get(path);
    if (feed === undefined) return;
    this.#on = onDiagnostic;
    feed.decoder.end();
  }

  /**
   * Forgets what was read of a file (shrunk or replaced: it is read again from its start).
   * @param path an added file
   */
  reset(path: string): void {
    const feed = this.#feeds.get(path);
    if (feed === undefined) return;
    this.#feeds.set(path, this.#newFeed(path, feed.read.file.fsid));
    this.#stale = true;
  }

  /**
   * Brings the session up to date with every line fed (see the class comment).
   * @param onDiagnostic receives the graph stage's diagnostics of a full resolve, and romp home's
   * @returns the session
   */
  async session(onDiagnostic: OnDiagnostic): Promise<Session> {
    this.#on = onDiagnostic;
    const homeChanged = await this.#home.refresh(onDiagnostic);
    const state = this.#state;
    if (state === undefined || this.#stale || homeChanged || !this.#extend(state)) this.#resolve(onDiagnostic);
    return this.#home.apply((this.#state as SessionState).session, onDiagnostic);
  }

  /**
   * Where a builder in another process can start reading this session's one file to rebuild its last turn, with what it
   * must be told of the lines before (`BuilderOptions.base`): the last turn's first atom's line, when that line is one
   * the file holds (not generated), has a time, and hangs on the path line before it; none for a session of several
   * files, with a checkpoint (`last-prompt`: it picks the leaf), with a generated prompt not yet answered (at the end,
   * or at that line), or with no time at all. The caller still has to check that what the new builder makes of the rest
   * is what this one made (docs/index.md, "Freshness").
   * @param refused told why there is none, in a few words (`romp index --json`'s `readWhole` says it)
   * @returns the point, or `undefined`
   */
  restartPoint(refused: (why: string) => void = () => {}): RestartPoint | undefined {
    const no = (why: string): undefined => {
      refused(why);
      return undefined;
    };
    const state = this.#state;
    if (state === undefined) return no('nothing read');
    if (this.#feeds.size !== 1) return no('a session of several files');
    if (!state.generatedSealed) return no('a queued prompt whose request is not answered yet');
    if (state.collected.checkpoints.length > 0) return no('a last-prompt checkpoint');
    if (!state.timesKnown) return no('a line without a time');
    const turn = state.session.turns.at(-1);
    const first = turn?.atoms[0];
    const entry = first === undefined ? undefined : state.index.byUuid.get(first.uuid);
    if (turn === undefined) return no('no turn');
    if (entry === undefined) return no('a last turn that starts with a queued prompt no line holds');
    if (typeof entry.parent !== 'string') return no("a last turn that starts the session's chain");
    if (Number.isNaN(entry.t)) return no('a last turn whose first line has no time');
    const path = state.path.entries;
    const at = path.lastIndexOf(entry);
    const base = this.#options.base;
    // fed from a base at that very line: it stays the point
    if (at === 0 && base !== undefined && entry.line === base.lines + 1) return { ...base, turn: turn.id };
    // no replay: nothing queued since the base, whose generated prompts' keys still stand
    const queue = state.replay === undefined ? base?.queue : state.replay.at(entry.seq);
    if (state.replay !== undefined && queue === undefined)
      return no('a queued prompt not answered where the last turn starts');
    // the path line before, or progress rows hanging on it (the line names the last row: bridged, `buildIndex`)
    const parent = entry.record['parentUuid'];
    if (at < 1 || (path[at - 1] as Entry).uuid !== entry.parent || typeof parent !== 'string')
      return no("a last turn whose first line does not follow the path's line before it");
    const before = path.slice(0, at);
    const gitBranch = lastString(before, 'gitBranch') ?? base?.gitBranch;
    const summary = summaryFor(before, state.collected) ?? base?.summary;
    const { customTitle, aiTitle } = state.collected;
    return {
      lines: entry.line - 1,
      byteOffset: entry.byteOffset,
      parent,
      rompUuid: state.rompUuid,
      dir: lastString(before, 'cwd') ?? base?.dir ?? '',
      ...(gitBranch === undefined ? {} : { gitBranch }),
      ...(summary === undefined ? {} : { summary }),
      ...(customTitle === undefined ? {} : { customTitle: customTitle.text }),
      ...(aiTitle === undefined ? {} : { aiTitle: aiTitle.text }),
      ...(queue === undefined || (queue.waiting.length === 0 && queue.seen.length === 0) ? {} : { queue }),
      turn: turn.id,
    };
  }

  #newFeed(path: string, fsid: string): FileFeed {
    const read = newFileRead({ fsid, path });
    const onRecord = this.#options.onRecord;
    // fed from a base: numbered as in the whole file
    const { lines = 0, byteOffset: bytes = 0 } = this.#options.base ?? {};
    const take = (record: RawRecord, line: number, byteOffset: number): void => {
      onRecord?.(record, line + lines, byteOffset + bytes);
      takeRecord(read, record, line + lines, byteOffset + bytes, this.#on);
    };
    const onDecode = (d: Diagnostic): void =>
      this.#on(
        this.#options.base === undefined
          ? d
          : {
              ...d,
              ...(d.line === undefined ? {} : { line: d.line + lines }),
              ...(d.byteOffset === undefined ? {} : { byteOffset: d.byteOffset + bytes }),
            },
      );
    // the model never reads `toolUseResult` nor progress payloads: not decoded at all (`findUnread`)
    const decoder = new RecordDecoder(path, take, onDecode, { skipUnread: true, ...this.#options });
    return { read, decoder, seen: { entries: 0, refs: 0, checkpoints: 0, queue: 0, first: read.first } };
  }

  #resolve(onDiagnostic: OnDiagnostic): void {
    const reads = [...this.#feeds.values()].map((f) => f.read);
    const collected = assemble(reads);
    const base = this.#options.base;
    const root = collected.entries[0];
    if (base !== undefined) {
      if (base.customTitle !== undefined) collected.customTitle ??= { text: base.customTitle, seq: -1 };
      if (base.aiTitle !== undefined) collected.aiTitle ??= { text: base.aiTitle, seq: -1 };
      // the prompts waiting before the base, replayed before its first line (a time lost to JSON as `null` is none)
      const waiting = (base.queue?.waiting ?? []).map((op) => ({ ...op, t: op.t ?? Number.NaN, seq: -1 }));
      if (waiting.length > 0) collected.queue = [...waiting, ...collected.queue];
    }
    // the first line's parent was written before the base: not a gap in the history
    const on: OnDiagnostic =
      base === undefined || root?.parent !== base.parent
        ? onDiagnostic
        : (d) => {
            if (d.code !== 'HISTORY_GAP' || d.uuid !== root.uuid) onDiagnostic(d);
          };
    // a literal, not a spread of the options: a spread's shape is the collector's to drop after each parse,
    // and `buildSessionState`'s compiled code with it (see `refOf`)
    const { view, rompUuid } = this.#options;
    const options = { view, rompUuid, resolvePeer: this.#home.resolvePeer };
    const state = buildSessionState(collected, options, on, base?.queue?.seen);
    if (base !== undefined) {
      const gitBranch = lastString(state.path.entries, 'gitBranch') ?? base.gitBranch;
      state.summary ??= base.summary;
      state.session = {
        ...state.session,
        name: sessionName(collected, state.summary),
        dir: lastString(state.path.entries, 'cwd') ?? base.dir,
        ...(gitBranch === undefined ? {} : { gitBranch }),
      };
    }
    this.#state = state;
    this.#offsets = new Map();
    let offset = 0;
    const byFsid = new Map(reads.map((r) => [r.file.fsid, r]));
    for (const file of collected.files) {
      const read = byFsid.get(file.fsid) as FileRead;
      this.#offsets.set(read, offset);
      offset += read.count;
    }
    for (const feed of this.#feeds.values()) this.#markSeen(feed);
    this.#stale = false;
    this.#resolution = 'full';
    this.#full++;
  }

  #markSeen(feed: FileFeed): void {
    const { read } = feed;
    feed.seen = {
      entries: read.entries.length,
      refs: read.refs.length,
      checkpoints: read.checkpoints.length,
      queue: read.queue.length,
      first: read.first,
    };
  }

  /**
   * The open-turn path: applies what was appended to the last file since the last call, when that only
   * extends the active path (`extendPath`). Returns false when it cannot; the caller then resolves the
   * whole session (what this changed in the index and path is dropped with them).
   */
  #extend(state: SessionState): boolean {
    if (this.#options.base !== undefined) return false;
    const grown = [...this.#feeds.values()].filter(
      (f) => f.read.entries.length !== f.seen.entries || f.read.refs.length !== f.seen.refs,
    );
    if (grown.length === 0) {
      this.#resolution = 'none';
      return true;
    }
    const feed = grown[0] as FileFeed;
    const { read, seen } = feed;
    const files = state.session.files;
    const base = this.#offsets.get(read);
    // the last file in the session's order, still last (its first time is what orders it; one file is always last)
    if (
      grown.length > 1 ||
      base === undefined ||
      files.at(-1)?.fsid !== read.file.fsid ||
      (read.first !== seen.first && files.length > 1) ||
      !state.timesKnown
    )
      return false;
    // generated prompts still moving at the end after a full resolve: that resolve placed them
    if (!state.generatedSealed && state.floating === undefined) return false;
    const entries = read.entries.slice(seen.entries);
    const refs = read.refs.slice(seen.refs);
    const checkpoints = read.checkpoints.slice(seen.checkpoints);
    const queue = read.queue.slice(seen.queue);
    if (entries.some((e) => e.type !== 'progress' && Number.isNaN(e.t))) return false;
    const replay = state.replay;
    // the first queue operation: the replay starts with a full resolve
    if (queue.length > 0 && replay === undefined) return false;
    const collected = state.collected;
    collected.firstSessionId ??= read.firstSessionId;
    if (sessionUuid(collected, this.#options) !== state.rompUuid) return false;
    for (const e of entries) e.seq = base + e.fileSeq;
    for (const c of checkpoints) c.seq = base + c.fileSeq;
    for (const q of queue) q.seq = base + q.fileSeq;
    const leaf = state.path.leaf;
    const extension = extendPath(state.index, state.path, state.through, entries, {
      checkpoint: checkpoints.at(-1),
      open: state.open?.response,
      forward: state.forward,
      view: this.#options.view,
    });
    // an inline sidechain line (Claude Code ≤ 2.0.27) changes `sidechains`, which only a full resolve builds
    if (extension === undefined || extension.offPath.some((e) => e.isSidechain)) return false;

    const ctx = { rompUuid: state.rompUuid, resolvePeer: this.#home.resolvePeer };
    const pathRefs: RecordRef[] = [];
    const stepped: Stepped[] = [];
    let summary = state.summary;
    let dir = state.session.dir;
    let gitBranch = state.session.gitBranch;
    const first = state.path.entries.length - extension.onPath.length;
    for (const [i, e] of extension.onPath.entries()) {
      const item = pathItem(e, ctx);
      if (item === undefined || item.type === 'turn_end') pathRefs.push(refOf(e, true));
      stepped.push({ entry: e, item, at: first + i, summary, dir, gitBranch });
      summary = collected.summaries.get(e.uuid)?.text ?? summary;
      const cwd = e.record['cwd'];
      if (typeof cwd === 'string') dir = cwd;
      const branch = e.record['gitBranch'];
      if (typeof branch === 'string') gitBranch = branch;
    }
    let turns: TurnsState | undefined;
    if (extension.from === undefined) turns = this.#stepTurns(state, replay, queue, entries, leaf, stepped);
    else {
      const open = state.open as OpenTurnStart;
      if (queue.length > 0 || state.floating !== undefined || (replay?.count ?? 0) !== open.generated) return false;
      // the open response's lines in their new order, stepped again from the state before it
      const items = new Map(stepped.map((s) => [s.entry, s.item]));
      ({ turns, summary, dir, gitBranch } = open);
      for (const e of state.path.entries.slice(extension.from)) {
        turns = stepItem(turns, { entry: e, item: items.has(e) ? items.get(e) : pathItem(e, ctx) });
        summary = collected.summaries.get(e.uuid)?.text ?? summary;
        const cwd = e.record['cwd'];
        if (typeof cwd === 'string') dir = cwd;
        const branch = e.record['gitBranch'];
        if (typeof branch === 'string') gitBranch = branch;
      }
      state.turns = turns;
    }
    if (turns === undefined) return false;
    for (const e of extension.onPath) if (e.messageId !== undefined) state.pathMids.add(e.messageId);
    const progressRefs = extension.progress.map((e) => {
      const ref = refOf(e, false);
      state.progressRefs.add(e, ref);
      return ref;
    });
    // the same order as a full build's records: by line, and on one line (glued records) by kind
    const added = [...refs, ...pathRefs, ...extension.offPath.map((e) => refOf(e, false)), ...progressRefs].sort(
      (a, b) => a.line - b.line,
    );
    for (const r of added) state.session.records.push(r);
    for (const row of extension.through) {
      const ref = state.progressRefs.get(row);
      if (ref !== undefined) ref.onPath = true;
    }
    if (refs.some((r) => TITLE_TYPES.has(r.type))) {
      if (read.titles.custom !== undefined)
        collected.customTitle = { text: read.titles.custom.text, seq: base + read.titles.custom.seq };
      if (read.titles.ai !== undefined)
        collected.aiTitle = { text: read.titles.ai.text, seq: base + read.titles.ai.seq };
      for (const [leaf, title] of read.titles.summaries)
        collected.summaries.set(leaf, { text: title.text, seq: base + title.seq });
      summary = summaryFor(state.path.entries, collected);
      state.open = undefined; // its summary before the open response may be another now
    }
    state.summary = summary;
    state.session = {
      ...state.session,
      name: sessionName(collected, summary),
      dir,
      ...(gitBranch === undefined ? {} : { gitBranch }),
      turns: finishTurns(turns, state.rompUuid),
      leafFsid: (state.path.leaf as Entry).fsid,
    };
    for (const d of extension.diagnostics) this.#on(d);
    this.#markSeen(feed);
    this.#resolution = 'open-turn';
    return true;
  }

  /**
   * The turn builder stepped over the appended path lines, with the prompts the queue replay generates
   * (`queuedPrompts`): while a generated prompt's request is not answered it floats at the end (a later
   * line of its response, or the tool results after it, go before it), so the lines since the first such
   * prompt are placed again at each append, from the turn state before them, until it is answered.
   * Sets the state's turns; `undefined` when a prompt has no time (the full resolve fills it).
   */
  #stepTurns(
    state: SessionState,
    replay: QueueReplay | undefined,
    queue: QueueOperation[],
    entries: Entry[],
    leaf: Entry | undefined,
    stepped: Stepped[],
  ): TurnsState | undefined {
    if (replay !== undefined) {
      const before = replay.count;
      replay.feed(queue, entries);
      if (state.floating === undefined && replay.count > before)
        state.floating = { base: state.turns, from: before, leaf, tail: [] };
    }
    const floating = state.floating;
    let turns: TurnsState;
    if (floating === undefined) {
      turns = state.turns;
      for (const s of stepped) {
        const mid = s.entry.type === 'assistant' ? s.entry.messageId : undefined;
        // a new response: where its lines are stepped again from if they move (`resolveOpenResponse`)
        if (mid !== undefined && !state.pathMids.has(mid)) {
          state.pathMids.add(mid); // its next lines, in this batch too, continue it
          state.open = {
            response: { at: s.at, pos: s.entry.pos, mid },
            turns,
            summary: s.summary,
            dir: s.dir,
            gitBranch: s.gitBranch,
            generated: replay?.count ?? 0,
          };
        }
        turns = stepItem(turns, s);
      }
    } else {
      state.open = undefined;
      floating.tail.push(...stepped);
      const prompts = (replay as QueueReplay).prompts(floating.from);
      if (prompts.some((p) => Number.isNaN(p.atom.t))) return undefined;
      const slot = new Map<Entry, number>();
      if (floating.leaf !== undefined) slot.set(floating.leaf, 0);
      const items: Array<Atom | TurnEndMarker> = [];
      const absorbed = new Set<string>();
      for (const { entry, item } of floating.tail) {
        if (item !== undefined) {
          items.push(item);
          if (item.type !== 'turn_end' && absorbedLine(entry)) absorbed.add(item.uuid);
        }
        slot.set(entry, items.length);
      }
      placeGenerated(items, slot, prompts, absorbed);
      turns = floating.base;
      for (const item of items) turns = stepTurns(turns, item, item.type !== 'turn_end' && absorbed.has(item.uuid));
      if ((replay as QueueReplay).sealed) state.floating = undefined;
    }
    state.generatedSealed = replay?.sealed ?? true;
    state.turns = turns;
    return turns;
  }
}

holdShape(new SessionBuilder());

/** A path line appended, its item, its index in the path, and the session's summary, dir and git branch before it. */
interface Stepped {
  entry: Entry;
  item: Atom | TurnEndMarker | undefined;
  at: number;
  summary: string | undefined;
  dir: string;
  gitBranch: string | undefined;
}

/** The turn builder stepped over a path line's item, an attachment's atom absorbed. */
function stepItem(
  turns: TurnsState,
  { entry, item }: { entry: Entry; item: Atom | TurnEndMarker | undefined },
): TurnsState {
  return item === undefined ? turns : stepTurns(turns, item, item.type !== 'turn_end' && absorbedLine(entry));
}
