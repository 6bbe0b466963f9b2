import { open } from 'node:fs/promises';
import type { ApiMessage, Session } from '../model/types.ts';
import { normaliseMessage } from '../tree/normalise-message.ts';
import { parseTimestamp } from '../read/parse-timestamp.ts';
import { UNKNOWN_TIME } from '../model/time.ts';

/** A message line off the active path, read back for the page. */
export interface BranchLine {
  uuid: string;
  parentUuid: string | null;
  type: 'user' | 'assistant';
  message: ApiMessage;
  /** The line's `timestamp` (epoch ms), `UNKNOWN_TIME` when it has none: the index dates a rewound hit by it. */
  t: number;
}

/** A rewound branch: dead message lines hanging from one line of the conversation. */
export interface Branch {
  /** uuid of the branch's first line (its anchor in the page). */
  uuid: string;
  /** The line it forks from (`parentUuid` of its first line), `null` at the root. */
  from: string | null;
  lines: BranchLine[];
}

/** How many dead lines are read back, at most: past it, the page says how many were left out. */
export const BRANCH_LINES_MAX = 2000;
const LINE_BYTES_MAX = 1024 * 1024;

/**
 * The dead branches of a session (rewinds: `records` with `onPath: false`, user and assistant lines,
 * not sidechains), read back from their files by byte offset, and grouped: a branch is a dead line whose
 * parent is not dead, with its dead descendants in file order. At most {@link BRANCH_LINES_MAX} lines
 * are read; a line over 1 MiB or not JSON is skipped (the parse reports it).
 * @param session the parsed session
 * @returns the branches in file order, and how many dead lines were not read
 */
export async function readBranches(session: Session): Promise<{ branches: Branch[]; omitted: number }> {
  const dead = session.records.filter(
    (r) =>
      r.onPath === false &&
      r.isSidechain !== true &&
      (r.type === 'user' || r.type === 'assistant') &&
      r.uuid !== undefined,
  );
  const paths = new Map(session.files.map((f) => [f.fsid, f.path]));
  const lines: BranchLine[] = [];
  for (const ref of dead.slice(0, BRANCH_LINES_MAX)) {
    const path = paths.get(ref.fsid);
    if (path === undefined) continue;
    const record = await readLineAt(path, ref.byteOffset);
    if (record === undefined) continue;
    const type = ref.type as 'user' | 'assistant';
    const t = parseTimestamp(record['timestamp']);
    lines.push({
      uuid: ref.uuid as string,
      parentUuid: typeof record['parentUuid'] === 'string' ? record['parentUuid'] : null,
      type,
      message: normaliseMessage(type, record['message']),
      t: Number.isNaN(t) ? UNKNOWN_TIME : t,
    });
  }
  const byUuid = new Map(lines.map((l) => [l.uuid, l]));
  const branchOf = new Map<string, Branch>();
  const branches: Branch[] = [];
  for (const line of lines) {
    const parent = line.parentUuid === null ? undefined : branchOf.get(line.parentUuid);
    if (parent !== undefined) {
      parent.lines.push(line);
      branchOf.set(line.uuid, parent);
    } else if (line.parentUuid === null || !byUuid.has(line.parentUuid)) {
      const branch: Branch = { uuid: line.uuid, from: line.parentUuid, lines: [line] };
      branches.push(branch);
      branchOf.set(line.uuid, branch);
    }
  }
  return { branches, omitted: Math.max(0, dead.length - BRANCH_LINES_MAX) };
}

async function readLineAt(path: string, byteOffset: number): Promise<Record<string, unknown> | undefined> {
  const handle = await open(path, 'r').catch(() => undefined);
  if (handle === undefined) return undefined;
  try {
    const chunks: Buffer[] = [];
    let position = byteOffset;
    for (let total = 0; total < LINE_BYTES_MAX;) {
      const buffer = Buffer.allocUnsafe(64 * 1024);
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
      if (bytesRead === 0) break;
      const end = buffer.subarray(0, bytesRead).indexOf(0x0a);
      chunks.push(buffer.subarray(0, end === -1 ? bytesRead : end));
      if (end !== -1) {
        const value: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        return typeof value === 'object' && value !== null && !Array.isArray(value)
          ? (value as Record<string, unknown>)
          : undefined;
      }
      position += bytesRead;
      total += bytesRead;
    }
    return undefined; // no newline within the cap: a line too long, or a torn last line
  } catch {
    return undefined;
  } finally {
    await handle.close();
  }
}
