import type { GraphIndex } from './build-index.ts';
import { hasToolResult, type Entry } from './entry.ts';
import { lastLine } from './pick-leaf.ts';
import { recoverParallel } from './recover-parallel.ts';
import type { ActivePath } from './resolve-active-path.ts';

/** Where the open response starts on the active path: its first assistant line, which hung on the leaf. */
export interface OpenResponse {
  /** The line's index in `ActivePath.entries`. */
  at: number;
  /** The line's position in `GraphIndex.ordered`. */
  pos: number;
  /** Its `message.id`, which no earlier line of the path has. */
  mid: string;
}

/**
 * Resolves the open response's part of the active path again, as `resolveActivePath` would, without
 * walking the rest: for lines of a response that move the lines put back after it (streaming tool
 * execution, 2.1.x: a call hanging on an earlier call's result, results of parallel calls in another
 * order than their calls), which `extendPath` cannot append.
 *
 * It holds when every line from the response's first on (in file order) is one of its assistant lines
 * or a tool result, on the main chain, hanging on a line of that stretch (the first on the path line
 * before it), and no earlier line hangs on one of them (`forward`). Then the walk from the new leaf
 * (the last line) reaches the response's first line and, above it, the same lines as before; the
 * put-back step (`recoverParallel`) can only bring back lines of that stretch and only after its lines;
 * so the path before the response is unchanged, and its part is the walk over the stretch with its
 * other lines put back. Every line of the stretch must end up on the path (else the records would change).
 *
 * @param index the graph index, with the appended lines
 * @param path the active path; its entries from `open.at` on, `leaf`, `onPath` and `putBack` are updated
 * @param open where the open response starts
 * @param forward uuids that an earlier line names as its parent (written before it, or never)
 * @returns whether the path was resolved; on `false` it may be half-changed (the caller resolves the session)
 */
export function resolveOpenResponse(
  index: GraphIndex,
  path: ActivePath,
  open: OpenResponse,
  forward: ReadonlySet<string>,
): boolean {
  const { ordered, byUuid } = index;
  const first = ordered[open.pos];
  const before = path.entries[open.at - 1];
  if (first === undefined || path.entries[open.at] !== first || before === undefined) return false;
  for (let i = open.pos; i < ordered.length; i++) {
    const e = ordered[i] as Entry;
    if (e.isSidechain || forward.has(e.uuid)) return false;
    if (!(e.type === 'assistant' ? e.messageId === open.mid : hasToolResult(e))) return false;
    const parent = e.parent === null ? undefined : byUuid.get(e.parent);
    if (i === open.pos ? parent !== before : parent === undefined || parent.pos < open.pos) return false;
  }
  const leaf = lastLine(ordered) as Entry;
  const span = ordered.length - open.pos;
  const walked: Entry[] = [];
  for (let cur = leaf; walked.push(cur) <= span; cur = byUuid.get(cur.parent as string) as Entry)
    if (cur === first) break;
  if (walked.at(-1) !== first || walked.length > span) return false; // a cycle that never reaches it
  for (const e of path.entries.slice(open.at)) path.onPath.delete(e);
  for (const e of walked) path.onPath.add(e);
  const responses = new Set<string>();
  const part = recoverParallel(walked.reverse(), index, path.onPath, responses, open.pos);
  if (part.length !== span) return false;
  path.entries.length = open.at;
  for (const e of part) path.entries.push(e);
  path.leaf = leaf;
  if (responses.has(open.mid)) path.putBack.add(open.mid);
  else path.putBack.delete(open.mid);
  return true;
}
