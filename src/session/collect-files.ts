import { fsidOf } from '../model/fsid-of.ts';
import { diagnostic, type Diagnostic, type OnDiagnostic } from '../diagnostics/diagnostic.ts';
import { CHAIN_TYPES, messageIdOf, type Entry } from '../graph/entry.ts';
import type { Checkpoint } from '../graph/pick-leaf.ts';
import type { RecordRef, SessionFile } from '../model/types.ts';
import type { RawRecord } from '../read/parse-line.ts';
import { parseTimestamp } from '../read/parse-timestamp.ts';
import { readTranscriptLines, type ReadOptions } from '../read/read-transcript.ts';

/** Default cap on the files of one session. */
export const DEFAULT_MAX_FILES = 1000;

/** Options of `collectFiles`: the read options, and a cap on the number of files. */
export interface CollectOptions extends ReadOptions {
  /** Files of one session read at most; the rest are `TOO_MANY_FILES` diagnostics. Default 1000. */
  maxFiles?: number;
}

/** A `queue-operation` record (2.0.30+): the client's bookkeeping of prompts typed while busy. */
export interface QueueOperation {
  operation: string;
  /** epoch ms */
  t: number;
  content: unknown;
  /** 2.1.332: why a `remove` happened (`cleared_on_cancel`, `dropped_by_hook`: dropped, not delivered). */
  reason: string | undefined;
  fsid: string;
  line: number;
  /** Position in the session's file order, as `Entry.seq`. */
  seq: number;
  /** Position among the records of its own file. */
  fileSeq: number;
}

/** A title record's text, with its position for "last one wins". */
interface Title {
  text: string;
  seq: number;
}

/** Everything the later stages need from a session's files, in the session's file order. */
export interface Collected {
  files: SessionFile[];
  /** uuid-bearing lines, including progress rows (whose `record` is dropped). */
  entries: Entry[];
  checkpoints: Checkpoint[];
  /** Non-uuid records (metadata, queue operations, message lines without uuid). */
  refs: RecordRef[];
  /** `sessionId` of the first record that has one. */
  firstSessionId: string | undefined;
  customTitle: Title | undefined;
  aiTitle: Title | undefined;
  /** `summary` records by `leafUuid`. */
  summaries: Map<string, Title>;
  /** Queue operations, in the session's file order. */
  queue: QueueOperation[];
}

const EMPTY: RawRecord = Object.freeze({}) as RawRecord;

/** What has been read of one file so far (the live watcher keeps adding to it). */
export interface FileRead {
  file: SessionFile;
  entries: Entry[];
  checkpoints: Checkpoint[];
  refs: RecordRef[];
  queue: QueueOperation[];
  titles: { custom: Title | undefined; ai: Title | undefined; summaries: Map<string, Title> };
  firstSessionId: string | undefined;
  /** First and last timestamps of the file's lines (epoch ms), for ordering files. */
  first: number;
  last: number;
  count: number;
  /** The last record kept whole (not a progress row's), whose envelope strings the next one may share. */
  kept: RawRecord | undefined;
  /** The last assistant line's `message`, whose `id` and `model` strings the next one may share. */
  keptMessage: RawRecord | undefined;
}

/**
 * Reads a session's files and sorts what they hold for the graph stage (seed, "The file adapter",
 * steps 1 and 4).
 *
 * Files are put in time order (by their first, then last timestamp; ties keep the given order), and
 * every record gets a `seq` in that order. Each file gets an `fsid`: its name without `.jsonl`, made
 * unique with a `~N` suffix when two given files share a name (`FSID_COLLISION`, info).
 * Message lines without a uuid give `MISSING_UUID` and are kept as references; an unreadable
 * `timestamp` gives `BAD_TIMESTAMP`; files past `maxFiles` give `TOO_MANY_FILES` and are not read.
 *
 * @param paths the transcript files
 * @param onDiagnostic receives every diagnostic of reading and sorting
 * @param options read options and `maxFiles`
 * @returns the collected lines
 */
export async function collectFiles(
  paths: string[],
  onDiagnostic: OnDiagnostic,
  options: CollectOptions = {},
): Promise<Collected> {
  const fsids = new Set<string>();
  const reads: FileRead[] = [];
  const maxFiles = options.maxFiles ?? DEFAULT_MAX_FILES;
  // the model never reads `toolUseResult` nor progress payloads: not decoded at all (`findUnread`)
  const readOptions: ReadOptions = { skipUnread: true, ...options };
  for (const path of paths.slice(maxFiles)) onDiagnostic(tooManyFiles(path, maxFiles));
  for (const path of paths.slice(0, maxFiles)) {
    const fsid = uniqueFsid(path, fsids, onDiagnostic);
    const read = newFileRead({ fsid, path });
    await readTranscriptLines(
      path,
      (record, line, byteOffset) => takeRecord(read, record, line, byteOffset, onDiagnostic),
      onDiagnostic,
      readOptions,
    );
    reads.push(read);
  }
  return assemble(reads);
}

/**
 * The diagnostic of a file past the session's `maxFiles`, which is not read (`TOO_MANY_FILES`, error).
 * @param path the refused file
 * @param maxFiles the cap it is past
 * @returns the diagnostic
 */
export function tooManyFiles(path: string, maxFiles: number): Diagnostic {
  return diagnostic('TOO_MANY_FILES', `more than ${maxFiles} files given for one session; this one is not read`, {
    file: path,
  });
}

/**
 * Puts file reads together in the session's file order (by first, then last timestamp; ties keep the
 * given order) and numbers every record in that order (`seq`). Idempotent: the live watcher calls it
 * again as files grow.
 * @param reads the files' reads
 * @returns the collected lines
 */
export function assemble(reads: FileRead[]): Collected {
  const ordered = [...reads].sort((a, b) => a.first - b.first || a.last - b.last);
  let offset = 0;
  const collected: Collected = {
    files: ordered.map((r) => r.file),
    entries: [],
    checkpoints: [],
    refs: [],
    queue: [],
    firstSessionId: undefined,
    customTitle: undefined,
    aiTitle: undefined,
    summaries: new Map(),
  };
  for (const read of ordered) {
    for (const e of read.entries) e.seq = offset + e.fileSeq;
    for (const c of read.checkpoints) c.seq = offset + c.fileSeq;
    for (const q of read.queue) q.seq = offset + q.fileSeq;
    append(collected.entries, read.entries);
    append(collected.checkpoints, read.checkpoints);
    append(collected.refs, read.refs);
    append(collected.queue, read.queue);
    collected.firstSessionId ??= read.firstSessionId;
    collected.customTitle = later(collected.customTitle, read.titles.custom, offset);
    collected.aiTitle = later(collected.aiTitle, read.titles.ai, offset);
    for (const [leaf, title] of read.titles.summaries)
      collected.summaries.set(leaf, { text: title.text, seq: title.seq + offset });
    offset += read.count;
  }
  return collected;
}

/** Appends in place; no spread, which overflows the stack on arrays of millions. */
function append<T>(target: T[], items: T[]): void {
  for (const item of items) target.push(item);
}

/**
 * An empty file read.
 * @param file the file's fsid and path
 * @returns the read
 */
export function newFileRead(file: SessionFile): FileRead {
  return {
    file,
    entries: [],
    checkpoints: [],
    refs: [],
    queue: [],
    titles: { custom: undefined, ai: undefined, summaries: new Map() },
    firstSessionId: undefined,
    first: Number.POSITIVE_INFINITY,
    last: Number.POSITIVE_INFINITY,
    count: 0,
    kept: undefined,
    keptMessage: undefined,
  };
}

/**
 * Adds one record of a file to its read: a graph entry (lines of the chain types with a `uuid`, and
 * lines of any other type with a `uuid` and a `parentUuid`), or a reference, titles and checkpoints
 * (the rest).
 * @param read the file's read so far
 * @param record the record
 * @param line its 1-based line number
 * @param byteOffset the offset of its line's first byte
 * @param onDiagnostic receives `MISSING_UUID`, `BAD_TIMESTAMP`
 */
export function takeRecord(
  read: FileRead,
  record: RawRecord,
  line: number,
  byteOffset: number,
  onDiagnostic: OnDiagnostic,
): void {
  const seq = read.count++;
  const type = typeof record['type'] === 'string' ? record['type'] : '(missing)';
  const uuid = record['uuid'];
  const { fsid, path } = read.file;
  if (read.firstSessionId === undefined && typeof record['sessionId'] === 'string')
    read.firstSessionId = record['sessionId'];
  // a row type newer than this reader that has `uuid` and `parentUuid` still takes part in the chain
  // (known-failures F13): a record on the path, never an atom
  if (typeof uuid === 'string' && (CHAIN_TYPES.has(type) || 'parentUuid' in record)) {
    const t = parseTimestamp(record['timestamp']);
    if (Number.isNaN(t)) {
      const raw = record['timestamp'];
      const what = raw === undefined ? 'no timestamp' : `timestamp ${JSON.stringify(raw)} is not a date`;
      onDiagnostic(
        diagnostic('BAD_TIMESTAMP', `${what}; the previous atom's time is used`, {
          file: path,
          line,
          byteOffset,
          uuid,
        }),
      );
    } else {
      if (read.first === Number.POSITIVE_INFINITY) read.first = t;
      read.last = t;
    }
    let parent = record['parentUuid'];
    // a line's parent is most often the line before: that line's uuid string stands for it, so the copy
    // JSON.parse made dies young (uuid strings a row are most of what a progress row keeps) and map
    // lookups of it find its hash already computed
    const before = read.entries[read.entries.length - 1];
    if (before !== undefined && before.uuid === parent) {
      parent = before.uuid;
      if (type !== 'progress') record['parentUuid'] = parent;
    }
    // the harness's own copy of a tool's output (a third of a real file's bytes): not in the model, and
    // holding it until the session is built would only cost memory and garbage collection
    if (record['toolUseResult'] !== undefined) record['toolUseResult'] = undefined;
    if (type !== 'progress') shareEnvelope(read, record);
    read.entries.push({
      uuid,
      parent: typeof parent === 'string' ? parent : null,
      via: undefined,
      type,
      subtype: typeof record['subtype'] === 'string' ? record['subtype'] : undefined,
      isSidechain: record['isSidechain'] === true,
      messageId: messageIdOf(type, record),
      t,
      fsid,
      file: path,
      line,
      byteOffset,
      seq,
      fileSeq: seq,
      pos: -1,
      record: type === 'progress' ? EMPTY : record,
    });
    return;
  }
  read.refs.push(plainRef(fsid, line, byteOffset, type, record));
  if (CHAIN_TYPES.has(type)) {
    onDiagnostic(
      diagnostic('MISSING_UUID', `${type} line has no uuid; kept as a record, not in the graph`, {
        file: path,
        line,
        byteOffset,
      }),
    );
  }
  noteMetadata(read, type, record, seq, line, byteOffset);
}

/**
 * The reference of a line that is not a graph entry: a queue operation's `operation` as its `subtype`, with its
 * time. One literal per shape (no member added later: see `refOf`).
 */
function plainRef(fsid: string, line: number, byteOffset: number, type: string, record: RawRecord): RecordRef {
  if (type === 'queue-operation') {
    const subtype = String(record['operation']);
    const t = parseTimestamp(record['timestamp']);
    return Number.isNaN(t) ? { fsid, line, byteOffset, type, subtype } : { fsid, line, byteOffset, type, subtype, t };
  }
  const subtype = record['subtype'];
  return typeof subtype === 'string' ? { fsid, line, byteOffset, type, subtype } : { fsid, line, byteOffset, type };
}

/**
 * Members Claude Code writes alike line after line: the session's id, folder, version and branch, a
 * response's `requestId`.
 */
const ENVELOPE = ['sessionId', 'cwd', 'version', 'gitBranch', 'slug', 'userType', 'requestId'] as const;

/**
 * Points a kept record's envelope strings that equal the last kept record's at that record's strings, so
 * that the copies `JSON.parse` made die young instead of being held (and copied by the collector) once a
 * line: the same values, other string objects.
 */
function shareEnvelope(read: FileRead, record: RawRecord): void {
  const last = read.kept;
  read.kept = record;
  if (last !== undefined) share(record, last, ENVELOPE);
  const message = record['message'];
  if (record['type'] !== 'assistant' || typeof message !== 'object' || message === null) return;
  // the lines of one response (one block each) and the responses of one model
  if (read.keptMessage !== undefined) share(message as RawRecord, read.keptMessage, MESSAGE_MEMBERS);
  read.keptMessage = message as RawRecord;
}

/** An assistant message's members written alike line after line. */
const MESSAGE_MEMBERS = ['id', 'model'] as const;

/** Points `record`'s string members named in `keys` that equal `last`'s at `last`'s strings. */
function share(record: RawRecord, last: RawRecord, keys: readonly string[]): void {
  for (const key of keys) {
    const value = record[key];
    if (typeof value === 'string' && value === last[key]) record[key] = last[key];
  }
}

function noteMetadata(
  read: FileRead,
  type: string,
  record: RawRecord,
  seq: number,
  line: number,
  byteOffset: number,
): void {
  const text = (key: string): Title | undefined => {
    const value = record[key];
    return typeof value === 'string' && value.trim() !== '' ? { text: value, seq } : undefined;
  };
  if (type === 'custom-title') read.titles.custom = text('customTitle') ?? read.titles.custom;
  else if (type === 'ai-title') read.titles.ai = text('aiTitle') ?? read.titles.ai;
  else if (type === 'summary') {
    const title = text('summary');
    if (title !== undefined && typeof record['leafUuid'] === 'string')
      read.titles.summaries.set(record['leafUuid'], title);
  } else if (type === 'queue-operation') {
    read.queue.push({
      operation: String(record['operation']),
      t: parseTimestamp(record['timestamp']),
      content: record['content'],
      reason: typeof record['reason'] === 'string' ? record['reason'] : undefined,
      fsid: read.file.fsid,
      line,
      seq,
      fileSeq: seq,
    });
  } else if (type === 'last-prompt' && 'leafUuid' in record) {
    const leaf = record['leafUuid'];
    read.checkpoints.push({
      leafUuid: typeof leaf === 'string' ? leaf : null,
      explicit: record['explicit'] === true,
      seq,
      fileSeq: seq,
      file: read.file.path,
      line,
      byteOffset,
    });
  }
}

function later(current: Title | undefined, next: Title | undefined, offset: number): Title | undefined {
  return next === undefined ? current : { text: next.text, seq: next.seq + offset };
}

/**
 * A file's fsid: its name without `.jsonl`, with a `~N` suffix when another file of the session has it
 * (`FSID_COLLISION`, info).
 * @param path the file
 * @param taken fsids already given; updated
 * @param onDiagnostic receives `FSID_COLLISION`
 * @returns the fsid
 */
export function uniqueFsid(path: string, taken: Set<string>, onDiagnostic: OnDiagnostic): string {
  const stem = fsidOf(path);
  let fsid = stem;
  for (let n = 2; taken.has(fsid); n++) fsid = `${stem}~${n}`;
  if (fsid !== stem) {
    onDiagnostic(
      diagnostic('FSID_COLLISION', `another file is also named ${stem}; this one's fsid is ${fsid}`, { file: path }),
    );
  }
  taken.add(fsid);
  return fsid;
}
