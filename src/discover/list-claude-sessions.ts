import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import type { RawRecord } from '../read/parse-line.ts';
import { parseTimestamp } from '../session/parse-timestamp.ts';
import { deriveAuthor } from '../tree/derive-author.ts';
import { normaliseMessage } from '../tree/normalise-message.ts';
import { typedText } from '../views/prompt-text.ts';
import { dirents, discoverTranscripts, type SkippedEntry } from './discover-transcripts.ts';
import { firstSessionId } from './first-session-id.ts';
import { readEdges } from './read-edges.ts';

/** One Claude Code session file, as listed by `listClaudeSessions`. */
export interface ClaudeSessionInfo {
  /** The file's Claude session id (its name without `.jsonl`). */
  id: string;
  /** The project folder's name (the cwd with separators replaced by `-`). */
  project: string;
  path: string;
  /** Last `custom-title` / `ai-title` in the tail, else a `summary` in the head; `""` without one. */
  title: string;
  /** What was typed in the first human or sdk prompt of the head (`typedText`); `""` when none is there. */
  firstPrompt: string;
  /** First and last timestamps read (epoch ms); `NaN` when none. */
  first: number;
  last: number;
  /** Bytes. */
  size: number;
  lines: number;
  linesEstimated: boolean;
  /** Subagent transcripts of this session: `<id>/subagents/**\/agent-*.jsonl`, and 2.0.x flat `agent-*.jsonl` naming it. */
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
  /** Receives each entry left out (a FIFO, a link out of the folder: see `discoverTranscripts`). */
  onSkipped?: (skipped: SkippedEntry) => void;
}

/**
 * Lists the sessions in Claude Code's projects folder, newest first, reading only the head and tail of
 * each file (transcript-format §2): id, project, title, first prompt, first and last time, size and
 * line count (exact for small files, else estimated), with subagent files attached to their parent.
 * The files are those of `discoverTranscripts` (regular files; links only inside the folder); a file
 * that cannot be read is listed with its path and `error`.
 * @param options projects folder, project filter, concurrency, where skipped entries go
 * @returns the sessions, newest `last` first
 */
export async function listClaudeSessions(options: ListOptions = {}): Promise<ClaudeSessionInfo[]> {
  const root = options.projectsDir ?? defaultProjectsDir();
  const { files, skipped } = await discoverTranscripts(root, options.project);
  for (const s of skipped) options.onSkipped?.(s);
  const sessions: ClaudeSessionInfo[] = [];
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
  await inBatches(sessions, options.concurrency ?? 32, fill);
  const byId = new Map(sessions.map((s) => [`${s.project}/${s.id}`, s]));
  for (const s of sessions) s.subagents = [...(nested.get(`${s.project}/${s.id}`) ?? [])];
  const orphans: ClaudeSessionInfo[] = [];
  await inBatches(flatAgents, options.concurrency ?? 32, async ({ project, path }) => {
    const info = blank(project, path);
    await fill(info);
    const parent = byId.get(`${project}/${info.parentSessionId ?? ''}`);
    if (parent !== undefined) parent.subagents.push(path);
    else orphans.push({ ...withoutParent(info), orphan: true });
  });
  for (const s of sessions) s.subagents.sort();
  return [...sessions.map(withoutParent), ...orphans].sort((a, b) => (b.last || 0) - (a.last || 0) || a.path.localeCompare(b.path));
}

type Working = ClaudeSessionInfo & { parentSessionId?: string };

function blank(project: string, path: string): Working {
  return { id: basename(path, '.jsonl'), project, path, title: '', firstPrompt: '', first: Number.NaN, last: Number.NaN, size: 0, lines: 0, linesEstimated: false, subagents: [] };
}

function withoutParent(info: Working): ClaudeSessionInfo {
  const { parentSessionId: _unused, ...rest } = info;
  return rest;
}

async function fill(info: Working): Promise<void> {
  try {
    const edges = await readEdges(info.path);
    Object.assign(info, { size: edges.size, lines: edges.lines, linesEstimated: edges.linesEstimated });
    const all = [...edges.head, ...edges.tail];
    info.first = timeIn(all);
    info.last = timeIn([...all].reverse());
    info.title = titleOf(all);
    // the head is parsed line by line only until the first prompt (and the session id) are known;
    // when a small head holds none (large snapshot lines first), a larger one is read once
    const scan = (lines: string[]): void => {
      for (const line of lines) {
        const record = parse(line);
        if (record === undefined) continue;
        if (info.parentSessionId === undefined && typeof record['sessionId'] === 'string') info.parentSessionId = record['sessionId'];
        info.firstPrompt = promptOf(record);
        if (info.firstPrompt !== '') return;
      }
    };
    scan(edges.head);
    if (info.firstPrompt === '' && edges.linesEstimated) scan((await readEdges(info.path, 256 * 1024, 0)).head);
  } catch (error) {
    info.error = (error as Error).message;
  }
}

/** The first timestamp found in the lines (a byte scan, no JSON.parse). */
function timeIn(lines: string[]): number {
  for (const line of lines) {
    const t = parseTimestamp(timestampText(line));
    if (!Number.isNaN(t)) return t;
  }
  return Number.NaN;
}

/**
 * The text of the first `"timestamp": "…"` in a line, compact or spaced JSON (`"timestamp" : "…"`).
 * One pass: each search starts where the last one stopped, so a line is read once whatever it holds.
 */
function timestampText(line: string): string | undefined {
  const key = '"timestamp"';
  for (let at = line.indexOf(key); at !== -1; at = line.indexOf(key, at)) {
    at = skipSpaces(line, at + key.length);
    if (line[at] !== ':') continue;
    at = skipSpaces(line, at + 1);
    if (line[at] !== '"') continue;
    const end = line.indexOf('"', at + 1);
    if (end === -1) return undefined;
    return line.slice(at + 1, end);
  }
  return undefined;
}

function skipSpaces(line: string, at: number): number {
  while (line[at] === ' ' || line[at] === '\t' || line[at] === '\n' || line[at] === '\r') at++;
  return at;
}

/** Only lines that name a title record are parsed. */
function titleOf(lines: string[]): string {
  const records = lines
    .filter((l) => /"type":\s*"(custom-title|ai-title|summary)"/.test(l))
    .map(parse)
    .filter((r): r is RawRecord => r !== undefined);
  const last = (type: string, key: string): string | undefined => {
    const value = records.findLast((r) => r['type'] === type && typeof r[key] === 'string')?.[key];
    return typeof value === 'string' ? value : undefined;
  };
  return last('custom-title', 'customTitle') ?? last('ai-title', 'aiTitle') ?? last('summary', 'summary') ?? '';
}

function promptOf(record: RawRecord): string {
  if (record['type'] !== 'user' || record['isSidechain'] === true) return '';
  const message = normaliseMessage('user', record['message']);
  const author = deriveAuthor(record, message.content, () => null, 'human');
  if (author !== 'human' && author !== 'sdk') return '';
  return typedText({ message });
}

function parse(line: string): RawRecord | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as RawRecord) : undefined;
  } catch {
    return undefined;
  }
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
  const ids = new Set([basename(sessionFile).replace(/\.jsonl$/i, '')]);
  const own = await firstSessionId(sessionFile);
  if (own !== undefined) ids.add(own);
  const found = new Set<string>();
  for (const id of ids) for (const agent of await nestedAgents(join(dir, id))) found.add(agent);
  for (const entry of await dirents(dir)) {
    if (!entry.isFile() || !entry.name.startsWith('agent-') || !entry.name.endsWith('.jsonl')) continue;
    const path = join(dir, entry.name);
    const id = await firstSessionId(path);
    if (id !== undefined && ids.has(id)) found.add(path);
  }
  return [...found].sort();
}

async function inBatches<T>(items: T[], size: number, work: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(work));
}

/** Claude Code's projects folder: `$CLAUDE_CONFIG_DIR/projects`, else `~/.claude/projects`. */
export function defaultProjectsDir(): string {
  const config = process.env['CLAUDE_CONFIG_DIR'];
  return join(config ?? join(homedir(), '.claude'), 'projects');
}
