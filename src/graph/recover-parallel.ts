import type { GraphIndex } from './build-index.ts';
import { hasToolResult, type Entry } from './entry.ts';
import type { EntrySet } from './entry-set.ts';

/**
 * Puts back the lines of the active path that lie off the `parentUuid` walk (transcript-format §8.1
 * step 7, Claude Code 2.1.80+): for every `message.id` on the path, its sibling lines that the walk
 * skipped, and every tool-result line answering one of that response's `tool_use` lines. Parallel tool
 * calls branch the graph (each result points at its own `tool_use` line), so without this a walk from
 * the leaf keeps one result and loses the others.
 *
 * The lines are inserted after the last path line of their `message.id`, in file order, and added to
 * `visited`.
 *
 * @param path the walked path, root → leaf
 * @param index the graph index
 * @param visited the entries of `path`; updated
 * @returns the path with the recovered lines inserted
 */
export function recoverParallel(path: Entry[], index: GraphIndex, visited: EntrySet): Entry[] {
  // a split line hangs on an earlier line of its own response, a tool result on the tool_use line, and
  // that line is on the path or put back itself; a line merely sharing the id elsewhere (a rewound
  // answer or its tool results, behind a gateway that reuses one id) is neither.
  // One pass in file order over the lines the walk skipped, so each response's list comes out sorted.
  const found = new Map<string, Entry[]>();
  const taken = new Set<Entry>();
  for (const e of index.ordered) {
    if (visited.has(e) || e.parent === null || (e.type !== 'assistant' && !hasToolResult(e))) continue;
    const parent = index.byUuid.get(e.parent);
    const mid = parent?.messageId;
    if (parent === undefined || mid === undefined || (e.type === 'assistant' && e.messageId !== mid)) continue;
    if (!visited.has(parent) && !taken.has(parent)) continue;
    taken.add(e);
    const list = found.get(mid);
    if (list === undefined) found.set(mid, [e]);
    else list.push(e);
  }
  if (found.size === 0) return path;
  const lastOfMessage = new Map<string, number>();
  path.forEach((e, i) => {
    if (e.messageId !== undefined && found.has(e.messageId)) lastOfMessage.set(e.messageId, i);
  });
  // one position per message id, so one list per position
  const inserts = new Map<number, Entry[]>();
  for (const [mid, list] of found) {
    const at = lastOfMessage.get(mid);
    if (at === undefined) continue;
    const kept = list.filter((e) => e.isSidechain === path[at]?.isSidechain);
    for (const e of kept) visited.add(e);
    inserts.set(at, kept);
  }
  const result: Entry[] = [];
  path.forEach((e, i) => {
    result.push(e);
    for (const extra of inserts.get(i) ?? []) result.push(extra);
  });
  return result;
}
