import { stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { fsidOf } from '../model/fsid-of.ts';
import { basename, dirname, join } from 'node:path';
import type { RawRecord } from '../read/parse-line.ts';
import { parseTimestamp } from '../read/parse-timestamp.ts';
import { PromptCounter, type PromptCount } from './count-prompts.ts';
import { dirents, discoverTranscripts, type SkippedEntry } from './discover-transcripts.ts';
import { firstSessionId } from './first-session-id.ts';
import { LAST_TIME_BYTES, lastTime, lastTimeIn, timestampText, type LastTime } from './last-time.ts';
import { parseRecord } from './parse-record.ts';
import { edgesIn, utf8Line, type Edges } from './read-edges.ts';
import { readWholeSync } from './read-whole-sync.ts';
import { Utf16Parts } from './utf16-parts.ts';
import { utf16Encoding } from '../read/utf16-encoding.ts';
import { errorReason } from '../diagnostics/error-reason.ts';
import { NotTranscript, notTranscriptIn } from './not-transcript.ts';

/** One Claude Code session file, as listed by `listClaudeSessions`. */
export interface ClaudeSessionInfo {
  /** The file's Claude session id (its name without `.jsonl`). */
  id: string;
  /** The project folder's name (the cwd with separators replaced by `-`). */
  project: string;
  /** The project's real folder: the `cwd` of the first prompt line that has one; `""` when none does. */
  cwd: string;
  path: string;
  /** Last `custom-title` / `ai-title` in the tail, else a `summary` in the head; `""` without one. */
  title: string;
  /** What was typed in the first human or sdk prompt (`typedText`); `""` when none. */
  firstPrompt: string;
  /** The first timestamp of the head (epoch ms); `NaN` when none. */
  first: number;
  /** The last activity (epoch ms): the last timestamp in the file, else its mtime (`lastFrom`); `NaN` when unreadable.
   * */
  last: number;
  /** Where `last` came from: the last line with a `timestamp`, or the file's `mtime` when no line near the end has one.
   * */
  lastFrom?: 'timestamp' | 'mtime';
  /** The `gitBranch` of the last line that names one in the tail (the last 8 KiB), else in the head (the first 8 KiB);
   * absent when none there does. */
  gitBranch?: string;
  /** Prompts typed by a person or sent by an SDK host, rewound ones included (`PromptCounter`). */
  prompts: number;
  /** Bytes. */
  size: number;
  /** Lines in the file, counted. */
  lines: number;
  /** Always false: `lines` is counted (kept for readers of `romp ls --json` before 0.x, when it was estimated). */
  linesEstimated: boolean;
  /** Subagent transcripts of this session: `<id>/subagents/**\/agent-*.jsonl`, and 2.0.x flat `agent-*.jsonl` naming
   * it. */
  subagents: string[];
  /** A subagent file whose parent session is not in the folder. */
  orphan?: boolean;
  /** Why the file could not be read (it is listed with its path only). */
  error?: string;
}

/** Options of `listClaudeSessions`. */
export interface ListOptions {
  /** Claude Code's projects folder; default `$CLAUDE_CONFIG_DIR/projects`, else `~/.claude/projects`. */
  projectsDir?: string;
  /** Only this project (folder name). */
  project?: string;
  /** Files read at once. Default 32. */
  concurrency?: number;
  /** Receives each entry left out (a FIFO, a link out of the folder: see `discoverTranscripts`; a file that is not a
   * transcript: `notTranscriptIn`, once the files are read), in the walk's order. */
  onSkipped?: (skipped: SkippedEntry) => void;
  /**
   * What a file read before gave, when it is still the same file (romp's index: `storedListings`); a file
   * it has nothing for is read (`fileListing`).
   */
  stored?: (path: string) => Promise<FileListing | undefined>;
  /**
   * Only the newest this many sessions (orphan subagent files among them) are returned. The others are read at their
   * first and last 64 KiB only, which give their order (`last`), not their prompts and lines: no pass over the bytes
   * between, no prompt counted (over 3,000 sessions, `romp ls -n 20` 390 ms where the whole list takes 670). Default:
   * all.
   */
  limit?: number;
  /** With `limit`: receives each session past it, newest first, as its edges tell it (`prompts` and `lines` 0). */
  onPast?: (session: ClaudeSessionInfo) => void;
  /**
   * Receives each file listed and where its listing came from: `stored`, the file read now, or only its edges
   * (`limit`: a session past it; one read at its edges and then, among the newest, whole is given twice).
   */
  onListed?: (path: string, from: 'stored' | 'read' | 'edges') => void;
}

/**
 * What one transcript file tells `listClaudeSessions` (the fields of `ClaudeSessionInfo` that come from
 * the file's bytes), and the `sessionId` of its first line (a flat 2.0.x subagent file's parent).
 */
export type FileListing = Pick<
  ClaudeSessionInfo,
  'cwd' | 'title' | 'firstPrompt' | 'first' | 'last' | 'lastFrom' | 'prompts' | 'size' | 'lines' | 'gitBranch'
> & { parentSessionId?: string };

/**
 * Lists the sessions in Claude Code's projects folder, newest first (transcript-format §2): id,
 * project and its cwd, title (head and tail), first prompt and prompt count (one pass over the file,
 * parsing only candidate lines: `PromptCounter`), first time (head) and last activity (read backwards
 * from the end: `lastTime`), size and line count, with subagent files attached to their parent.
 * The files are those of `discoverTranscripts` (regular files; links only inside the folder); a file
 * that cannot be read is listed with its path and `error`; one that is not a transcript (`notTranscriptIn`: a binary
 * named `*.jsonl`) is left out and given to `onSkipped`, as the walk's skipped entries are. With `limit`, the newest
 * that many are returned, as the whole list gives them: each session is read at its edges for its order, and only
 * those among the newest are then read whole.
 * @param options projects folder, project filter, limit, concurrency, where skipped entries go
 * @returns the sessions, newest `last` first
 */
export async function listClaudeSessions(options: ListOptions = {}): Promise<ClaudeSessionInfo[]> {
  const root = options.projectsDir ?? defaultProjectsDir();
  const { files, skipped } = await discoverTranscripts(root, options.project);
  for (const s of skipped) options.onSkipped?.(s);
  // a file that is not a transcript is left out, named as the walk's skipped entries are
  const notTranscripts = new Map<string, string>();
  // with a limit, the sessions listed from their edges only: those among the newest are read whole after
  const edgesOnly = new Set<string>();
  const fill = async (info: Working, whole = true): Promise<void> => {
    try {
      const stored = await options.stored?.(info.path);
      Object.assign(info, stored ?? (await fileListing(info.path, whole)));
      if (stored === undefined && !whole) edgesOnly.add(info.path);
      options.onListed?.(info.path, stored !== undefined ? 'stored' : whole ? 'read' : 'edges');
    } catch (error) {
      if (!(error instanceof NotTranscript)) info.error = errorReason(error);
      else notTranscripts.set(info.path, error.message);
    }
  };
  const limit = options.limit;
  let sessions: ClaudeSessionInfo[] = [];
  const flatAgents: Array<{ project: string; path: string }> = [];
  const nested = new Map<string, string[]>();
  for (const { project, path, parts } of files) {
    const name = parts.at(-1) as string;
    if (parts.length === 1 && name.startsWith('agent-')) flatAgents.push({ project, path });
    else if (parts.length === 1) sessions.push(blank(project, path));
    else if (parts.length >= 3 && parts[1] === 'subagents' && name.startsWith('agent-')) {
      const key = `${project}/${parts[0] as string}`;
      nested.set(key, [...(nested.get(key) ?? []), path]);
    }
  }
  await inBatches(sessions, options.concurrency ?? 32, (info) => fill(info, limit === undefined));
  sessions = sessions.filter((s) => !notTranscripts.has(s.path));
  const byId = new Map(sessions.map((s) => [`${s.project}/${s.id}`, s]));
  for (const s of sessions) s.subagents = [...(nested.get(`${s.project}/${s.id}`) ?? [])];
  const orphans: ClaudeSessionInfo[] = [];
  await inBatches(flatAgents, options.concurrency ?? 32, async ({ project, path }) => {
    const info = blank(project, path);
    await fill(info);
    if (notTranscripts.has(path)) return;
    const parent = byId.get(`${project}/${info.parentSessionId ?? ''}`);
    if (parent !== undefined) parent.subagents.push(path);
    else orphans.push({ ...withoutParent(info), orphan: true });
  });
  for (const s of sessions) s.subagents.sort();
  for (const { path } of files) {
    const reason = notTranscripts.get(path);
    if (reason !== undefined) options.onSkipped?.({ path, reason });
  }
  const listed = [...sessions.map(withoutParent), ...orphans].sort(
    (a, b) => (b.last || 0) - (a.last || 0) || a.path.localeCompare(b.path),
  );
  if (limit === undefined) return listed;
  const newest = listed.slice(0, Math.max(0, limit));
  // their order is their edges' (`last`, then the path); what the rest of the bytes tell is read now
  await inBatches(
    newest.filter((s) => edgesOnly.has(s.path)),
    options.concurrency ?? 32,
    (info) => fill(info),
  );
  for (const s of listed.slice(newest.length)) options.onPast?.(s);
  return newest.map(withoutParent);
}

type Working = ClaudeSessionInfo & { parentSessionId?: string };

function blank(project: string, path: string): Working {
  return {
    id: basename(path, '.jsonl'),
    project,
    cwd: '',
    path,
    title: '',
    firstPrompt: '',
    first: Number.NaN,
    last: Number.NaN,
    prompts: 0,
    size: 0,
    lines: 0,
    linesEstimated: false,
    subagents: [],
  };
}

function withoutParent(info: Working): ClaudeSessionInfo {
  const { parentSessionId: _unused, ...rest } = info;
  return rest;
}

/** The converted start of a UTF-16 file kept for its edges: as much as `readWholeSync` keeps of a file's start. */
const UTF8_HEAD_BYTES = 64 * 1024;

/**
 * What one transcript's bytes give `romp ls`: size, first time and title from its head and tail
 * (`edgesIn`), lines, prompts, first prompt and cwd from one pass (`PromptCounter`), last activity read
 * backwards from the end (`lastTimeIn`), and its first line's `sessionId`. The file is read once, in
 * 64 KiB parts on this thread (`readWholeSync`); only a file whose last 64 KiB hold no timestamped line
 * is read again, backwards, for its last activity (`lastTime`). A UTF-16 copy (`utf16Encoding`: Windows
 * PowerShell's `>`) is converted to UTF-8 as it is read (`Utf16Parts`), and listed from that, its last activity from
 * the converted last 4 MiB; its `size` is the file's.
 * @param path the transcript
 * @param whole `false`: read only its first and last 64 KiB (not a UTF-16 copy's), for what they tell (size, first and
 *   last time, title, branch): then `prompts` and `lines` are 0, and `firstPrompt`, `cwd` and `parentSessionId` unknown
 * @returns its listing
 * @throws NotTranscript for a file that is not a transcript (`notTranscriptIn`); NotRegularFile, or the system error
 *   when it cannot be read
 */
export async function fileListing(path: string, whole = true): Promise<FileListing> {
  const counter = new PromptCounter();
  const parts = new Utf16Parts((part) => counter.push(part), UTF8_HEAD_BYTES, LAST_TIME_BYTES);
  const { info, head, tail } = readWholeSync(path, (part) => parts.push(part), whole ? 0 : Infinity);
  const not = notTranscriptIn(head, info.size, path);
  if (not !== undefined) throw new NotTranscript(not);
  // a UTF-16 copy's edges are read from its UTF-8 form: made of the whole file
  if (!whole && utf16Encoding(head) !== undefined) return fileListing(path);
  const utf8 = parts.done();
  if (utf8 !== undefined) {
    // a UTF-16 copy: its lines, edges and last time read from its UTF-8 form; its size is the file's
    const last = lastTimeIn(utf8.tail, utf8.size, info.mtimeMs) ?? { time: Math.floor(info.mtimeMs), from: 'mtime' };
    return { ...listing(edgesIn(utf8.head, utf8.tail, utf8.size), counter.done(), last), size: info.size };
  }
  const edges = edgesIn(head, tail, info.size);
  const last = lastTimeIn(tail, info.size, info.mtimeMs);
  return listing(edges, counter.done(), last ?? (await lastTime(path)));
}

/**
 * The listing of a file that only grew since `was` was made of its first `from` bytes (they end with a newline:
 * `grewFrom`): the prompts and lines of the bytes from `from` on are counted and added to `was`'s; the title, times and
 * branch come from the file's first and last parts, as `fileListing` takes them. The same listing as `fileListing`'s
 * of the whole file, reading only the new bytes and the edges; a UTF-16 file, or one whose prompts so far had an empty
 * `cwd` (`""` also means none), is read whole.
 * @param path the file
 * @param was its listing when it had `from` bytes
 * @param from the bytes `was` was made of
 * @returns the listing
 * @throws NotRegularFile, or the system error when it cannot be opened or read
 */
export async function continuedListing(path: string, was: FileListing, from: number): Promise<FileListing> {
  if (was.cwd === '' && was.prompts > 0) return fileListing(path);
  const counter = new PromptCounter();
  const { info, head, tail } = readWholeSync(path, (part) => counter.push(part), from);
  if (utf16Encoding(head) !== undefined) return fileListing(path);
  const edges = edgesIn(head, tail, info.size);
  const last = lastTimeIn(tail, info.size, info.mtimeMs);
  const more = counter.done();
  const cwd = was.cwd === '' ? more.cwd : was.cwd;
  const counted: PromptCount = {
    lines: was.lines + more.lines,
    prompts: was.prompts + more.prompts,
    firstPrompt: was.prompts > 0 ? was.firstPrompt : more.firstPrompt,
    ...(cwd === undefined ? {} : { cwd }),
    ...(was.parentSessionId === undefined ? {} : { sessionId: was.parentSessionId }),
  };
  return listing(edges, counted, last ?? (await lastTime(path)));
}

function listing(edges: Edges, counted: PromptCount, last: LastTime): FileListing {
  const all = [...edges.head, ...edges.tail];
  const branch = branchIn(edges.tail) ?? branchIn(edges.head);
  return {
    size: edges.size,
    first: timeIn(all),
    title: titleOf(all),
    lines: counted.lines,
    prompts: counted.prompts,
    firstPrompt: counted.firstPrompt,
    cwd: counted.cwd ?? '',
    ...(counted.sessionId === undefined ? {} : { parentSessionId: counted.sessionId }),
    last: last.time,
    lastFrom: last.from,
    ...(branch === undefined ? {} : { gitBranch: branch }),
  };
}

/** The first timestamp found in the lines (byte strings: `edgesIn`; a byte scan, no JSON.parse). */
function timeIn(lines: string[]): number {
  for (const line of lines) {
    const text = timestampText(line);
    const t = parseTimestamp(text === undefined ? undefined : utf8Line(text));
    if (!Number.isNaN(t)) return t;
  }
  return Number.NaN;
}

/** The `gitBranch` of the last of the lines (byte strings: `edgesIn`) naming one (only those lines are decoded and
 * parsed). */
function branchIn(lines: string[]): string | undefined {
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i] as string;
    if (!line.includes('"gitBranch"')) continue;
    const value = parseRecord(utf8Line(line))?.['gitBranch'];
    if (typeof value === 'string') return value;
  }
  return undefined;
}

/**
 * Only lines (byte strings: `edgesIn`) that name a title record are decoded and parsed. (Searched in bytes, `\s`
 * matches a byte of a UTF-8 sequence that `\u00a0` does (`0xa0`) and not a non-ASCII space's sequence: neither is
 * JSON's whitespace, so the line it is in parses to nothing as text too.)
 */
function titleOf(lines: string[]): string {
  const records = lines
    .filter((l) => /"type":\s*"(custom-title|ai-title|summary)"/.test(l))
    .map((l) => parseRecord(utf8Line(l)))
    .filter((r): r is RawRecord => r !== undefined);
  const last = (type: string, key: string): string | undefined => {
    const value = records.findLast((r) => r['type'] === type && typeof r[key] === 'string')?.[key];
    return typeof value === 'string' ? value : undefined;
  };
  return last('custom-title', 'customTitle') ?? last('ai-title', 'aiTitle') ?? last('summary', 'summary') ?? '';
}

/**
 * The subagent transcripts of a session (2.1.2+ layout): `<sessionDir>/subagents/**\/agent-*.jsonl`.
 * Regular files and real folders only: links, FIFOs and sockets are left out (never followed, never opened).
 * @param dir the session's folder, `<projectDir>/<sessionId>`
 * @returns their paths, sorted; none when the folder does not exist
 */
export async function nestedAgents(dir: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (d: string): Promise<void> => {
    for (const entry of await dirents(d)) {
      const path = join(d, entry.name);
      if (entry.isFile() && entry.name.startsWith('agent-') && entry.name.endsWith('.jsonl')) found.push(path);
      else if (entry.isDirectory()) await walk(path);
    }
  };
  await walk(join(dir, 'subagents'));
  return found.sort();
}

/**
 * All subagent transcripts of one session file, in both layouts: nested under `<dir>/<id>/subagents/`
 * (2.1.2+), and flat `<dir>/agent-*.jsonl` beside the session (2.0.28–2.1.1) whose first line carries
 * the session's id (`sessionId`). The id is the file's name without `.jsonl`, and the `sessionId` of its
 * first line when that differs (a renamed copy). Regular files only, as `nestedAgents`.
 * @param sessionFile the session's transcript
 * @returns the subagent transcripts, sorted, each once
 */
export async function sessionSubagents(sessionFile: string): Promise<string[]> {
  const dir = dirname(sessionFile);
  const ids = new Set([fsidOf(sessionFile)]);
  const own = await firstSessionId(sessionFile);
  if (own !== undefined) ids.add(own);
  const found = new Set<string>();
  for (const id of ids) for (const agent of await nestedAgents(join(dir, id))) found.add(agent);
  for (const [path, id] of await flatAgents(dir)) if (id !== undefined && ids.has(id)) found.add(path);
  return [...found].sort();
}

/** A folder's flat `agent-*.jsonl` files (path → `firstSessionId`) as last read, with the folder's times then. */
interface FlatAgents {
  mtimeMs: number;
  ctimeMs: number;
  ids: Map<string, string | undefined>;
  /** Every file's first line had a `sessionId` (none is still being written). */
  complete: boolean;
}

/** `flatAgents`' memo, by folder. */
const FLAT_AGENTS = new Map<string, FlatAgents>();

/**
 * The flat `agent-*.jsonl` files of a project folder (2.0.28–2.1.1), each with the `sessionId` of its first line.
 * Read once per folder and kept while the folder's mtime and ctime stay (a file added, removed or renamed changes
 * them); a file whose first line had no id yet is read again at the next call, one that had one is not (Claude Code
 * only appends to it). Before, every session of a folder read the head of every flat agent file in it: 1,500
 * sessions and 300 agent files took 127 s of CPU.
 * @param dir the project folder
 * @returns path → session id (undefined: none yet)
 */
async function flatAgents(dir: string): Promise<ReadonlyMap<string, string | undefined>> {
  const info = await stat(dir).catch(() => undefined);
  const was = FLAT_AGENTS.get(dir);
  if (info === undefined) FLAT_AGENTS.delete(dir);
  else if (was?.complete === true && was.mtimeMs === info.mtimeMs && was.ctimeMs === info.ctimeMs) return was.ids;
  const ids = new Map<string, string | undefined>();
  for (const entry of await dirents(dir)) {
    if (!entry.isFile() || !entry.name.startsWith('agent-') || !entry.name.endsWith('.jsonl')) continue;
    const path = join(dir, entry.name);
    ids.set(path, was?.ids.get(path) ?? (await firstSessionId(path)));
  }
  if (info !== undefined)
    FLAT_AGENTS.set(dir, {
      mtimeMs: info.mtimeMs,
      ctimeMs: info.ctimeMs,
      ids,
      complete: [...ids.values()].every((id) => id !== undefined),
    });
  return ids;
}

async function inBatches<T>(items: T[], size: number, work: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(work));
}

/** Claude Code's projects folder: `$CLAUDE_CONFIG_DIR/projects`, else `~/.claude/projects`. */
export function defaultProjectsDir(): string {
  const config = process.env['CLAUDE_CONFIG_DIR'];
  return join(config ?? join(homedir(), '.claude'), 'projects');
}
