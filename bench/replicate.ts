/**
 * Real-shaped bench data: sessions built from real transcripts of the shared corpus, never from
 * filler. A copy of a real file keeps every byte of its content (the non-ASCII text, the tool output
 * written twice, the progress rows, the queue operations) and changes only what makes it a new
 * conversation: every uuid, `msg_`, `req_` and `toolu_` id becomes a fresh one, every timestamp is
 * shifted to follow the copy before, and (in one long session) each copy's root line hangs on the leaf
 * of the copy before, so the chain stays one valid session.
 *
 * Deterministic: the same sources and sizes give the same bytes.
 */
import { createWriteStream, existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Changes with what the functions here write: part of the names of the files kept between runs. */
export const REPLICA_VERSION = 1;

/** The corpus's transcripts folder (`shared/` beside the checkout). */
export const CORPUS: string = resolve(fileURLToPath(import.meta.url), '../../../../shared/corpus/transcripts');

/**
 * Real sessions of several Claude Code versions (1.0.x to 2.1.42), chosen for their mix of line
 * types: progress rows and queue operations (spotter), checkpointed 2.1.x sessions with compactions
 * (entireio), 1.0.x/2.0.x sessions with inline sidechains (claude-code-viewer, claude-code-log).
 */
const SOURCES = [
  'marot__spotter/258c7280-ae70-4798-800f-63464d01a85d.jsonl',
  'entireio__cli/b0/2936744f3b/0/full.jsonl',
  'iansherr__claude-code-log/real_projects/-Users-user-workspace-claude-code-log-sample/0d3a8e6f-290f-4105-a327-a2496e5e2a83.jsonl',
  'entireio__cli/83/a0bb2f3f73/0/full.jsonl',
];

/** One source file, read once: its lines, where its conversation starts and ends. */
interface Source {
  lines: string[];
  /** Index of the first main-chain line with `parentUuid: null`: re-parented in a long session. */
  root: number;
  /** uuid of the last main-chain user/assistant/system line: what the next copy hangs on. */
  leaf: string;
  /** First and last timestamp (epoch ms). */
  first: number;
  last: number;
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const API_ID = /\b(msg|req|toolu)_([0-9A-Za-z]+)/g;
const TIME = /"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z)"/g;
const SESSION_ID = /"sessionId":"[^"]*"/g;

function readSource(path: string): Source {
  const lines = readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.length > 0);
  let root = -1;
  let leaf = '';
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  lines.forEach((text, i) => {
    let record: Record<string, unknown>;
    try {
      record = JSON.parse(text) as Record<string, unknown>;
    } catch {
      return; // a malformed line is copied as it is: real files have them
    }
    const t = typeof record['timestamp'] === 'string' ? Date.parse(record['timestamp']) : Number.NaN;
    if (Number.isFinite(t)) [first, last] = [Math.min(first, t), Math.max(last, t)];
    if (record['isSidechain'] === true || typeof record['uuid'] !== 'string') return;
    if (root === -1 && record['parentUuid'] === null) root = i;
    if (['user', 'assistant', 'system'].includes(String(record['type']))) leaf = record['uuid'];
  });
  if (!Number.isFinite(first)) [first, last] = [0, 0];
  return { lines, root, leaf, first, last };
}

/** The copy-`k` form of an id: uuids keep their shape (first 8 hex digits mixed with `k`), API ids get a suffix. */
function uuidOf(uuid: string, k: number): string {
  if (k === 0) return uuid;
  const head = (Number.parseInt(uuid.slice(0, 8), 16) ^ Math.imul(k, 0x9e3779b1)) >>> 0;
  return `${head.toString(16).padStart(8, '0')}${uuid.slice(8)}`;
}

/** One source line as it reads in copy `k`, with times moved by `shift` ms. */
function copyLine(text: string, k: number, shift: number): string {
  if (k === 0 && shift === 0) return text;
  return text
    .replace(UUID, (u) => uuidOf(u, k))
    .replace(API_ID, (_, kind: string, id: string) => (k === 0 ? `${kind}_${id}` : `${kind}_${id}x${k.toString(36)}`))
    .replace(TIME, (_, iso: string) => `"${new Date(Date.parse(iso) + shift).toISOString()}"`);
}

/** Writes lines to a stream, waiting when it is full. */
async function writeAll(
  path: string,
  produce: (write: (line: string) => Promise<void>) => Promise<void>,
): Promise<void> {
  const out = createWriteStream(path);
  await produce(async (line) => {
    if (!out.write(`${line}\n`)) await new Promise<void>((done) => out.once('drain', () => done()));
  });
  await new Promise<void>((done, fail) => out.end((error?: Error | null) => (error ? fail(error) : done())));
}

function sources(paths: string[]): Source[] {
  const found = paths.filter((p) => existsSync(p));
  if (found.length === 0) throw new Error(`the bench builds its data from the corpus, and found none under ${CORPUS}`);
  return found.map(readSource);
}

/**
 * The lines of a fresh copy (`k`) of one real transcript, to append to a session: its root line hung on
 * `leaf`, its times moved to start one second after `clock`, every `sessionId` set to `sessionId`.
 * Every line is kept, in order (malformed ones as they are).
 * @param path the real transcript
 * @param k which copy (its ids differ from every other copy's)
 * @param leaf the uuid the copy's root hangs on
 * @param clock the session's last time (epoch ms)
 * @param sessionId the session's id
 * @returns the lines, without newlines
 */
export function continuation(path: string, k: number, leaf: string, clock: number, sessionId: string): string[] {
  const [source] = sources([path]) as [Source];
  const shift = clock + 1000 - source.first;
  return source.lines.map((text, i) => {
    const line = copyLine(text, k, shift).replace(SESSION_ID, `"sessionId":"${sessionId}"`);
    return i === source.root ? line.replace('"parentUuid":null', `"parentUuid":"${leaf}"`) : line;
  });
}

/** The long real sessions the bench copies by default (those of `SOURCES` that exist). */
export const LONG_SESSIONS: string[] = SOURCES.map((s) => join(CORPUS, s));

/**
 * The corpus's main-session transcripts (no subagent files) of at most `maxBytes`, in path order:
 * sources for folders of many small sessions.
 * @param maxBytes the largest file to take, bytes
 * @returns their paths
 */
export function smallSessions(maxBytes: number): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      const info = statSync(path);
      if (info.isDirectory() && name !== 'subagents') walk(path);
      else if (
        info.isFile() &&
        name.endsWith('.jsonl') &&
        !name.startsWith('agent-') &&
        info.size > 0 &&
        info.size <= maxBytes
      )
        out.push(path);
    }
  };
  if (existsSync(CORPUS)) walk(CORPUS);
  return out;
}

/**
 * One long session of `targetBytes` (cut at the first line past it): copies of the sources in turn, each copy's root
 * line hung on
 * the previous copy's leaf and its times one second after the previous copy's last, every `sessionId`
 * set to `sessionId`.
 * @param path where to write
 * @param targetBytes approximate size, bytes
 * @param sessionId the session's id
 * @returns the bytes and lines written, and the copies made
 */
export async function replicateSession(
  path: string,
  targetBytes: number,
  sessionId: string,
): Promise<{ bytes: number; lines: number; copies: number }> {
  const all = sources(LONG_SESSIONS);
  let bytes = 0;
  let lines = 0;
  let copies = 0;
  let clock = 0;
  let leaf: string | null = null;
  await writeAll(path, async (write) => {
    while (bytes < targetBytes) {
      const source = all[copies % all.length] as Source;
      const k = copies;
      const shift = copies === 0 ? 0 : clock + 1000 - source.first;
      for (const [i, text] of source.lines.entries()) {
        if (bytes >= targetBytes) break; // a session cut anywhere, as a live one is
        let line = copyLine(text, k, shift).replace(SESSION_ID, `"sessionId":"${sessionId}"`);
        if (i === source.root && leaf !== null) line = line.replace('"parentUuid":null', `"parentUuid":"${leaf}"`);
        bytes += Buffer.byteLength(line) + 1;
        lines++;
        await write(line);
      }
      clock = source.last + shift;
      leaf = uuidOf(source.leaf, k);
      copies++;
    }
  });
  return { bytes, lines, copies };
}

/**
 * A projects folder of `sessions` sessions, each a fresh copy of one source (its own ids and
 * `sessionId`, its times shifted by a minute per session), `projects` project folders, laid out as
 * Claude Code does: `<root>/<project>/<sessionId>.jsonl`. Made once and kept (a `.done` file marks it).
 * @param root the projects folder
 * @param sessions how many sessions
 * @param projects how many project folders they spread over
 * @param from the real transcripts to copy, in turn
 * @returns the files written and their total size in bytes
 */
export async function replicateProjects(
  root: string,
  sessions: number,
  projects: number,
  from: string[],
): Promise<{ files: string[]; bytes: number }> {
  const files: string[] = [];
  const done = join(root, '.done');
  const all = existsSync(done) ? [] : sources(from);
  for (let i = 0; i < sessions; i++) {
    const source = all[i % Math.max(1, all.length)];
    const dir = join(root, `-work-project-${i % projects}`);
    const sessionId = uuidOf('00000000-0000-4000-8000-000000000000', i + 1);
    const path = join(dir, `${sessionId}.jsonl`);
    files.push(path);
    if (source === undefined) continue;
    mkdirSync(dir, { recursive: true });
    const shift = Date.UTC(2026, 0, 1) + i * 60_000 - source.first;
    await writeAll(path, async (write) => {
      for (const text of source.lines)
        await write(copyLine(text, i + 1, shift).replace(SESSION_ID, `"sessionId":"${sessionId}"`));
    });
  }
  if (!existsSync(done)) writeFileSync(done, '');
  return { files, bytes: files.reduce((n, f) => n + statSync(f).size, 0) };
}
