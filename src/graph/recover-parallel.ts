import type { GraphIndex } from './build-index.ts';
import { hasToolResult, messageIdOf, type Entry } from './entry.ts';

/**
 * Puts back the lines of the active path that lie off the `parentUuid` walk (transcript-format §8.1
 * step 7, Claude Code 2.1.80+): for every `message.id` on the path, its sibling lines that the walk
 * skipped, and every tool-result line answering one of that response's `tool_use` lines. Parallel tool
 * calls branch the graph (each result points at its own `tool_use` line), so without this a walk from
 * the leaf keeps one result and loses the others.
 *
 * The lines are inserted after the last path line of their `message.id`, in file order, and their
 * uuids are added to `visited`.
 *
 * @param path the walked path, root → leaf
 * @param index the graph index
 * @param visited uuids on the path; updated
 * @returns the path with the recovered lines inserted
 */
export function recoverParallel(path: Entry[], index: GraphIndex, visited: Set<string>): Entry[] {
  const lastOfMessage = new Map<string, number>();
  path.forEach((e, i) => {
    const mid = messageIdOf(e);
    if (mid !== undefined) lastOfMessage.set(mid, i);
  });
  const inserts = new Map<number, Entry[]>();
  // one pass in file order over the lines the walk skipped, so each insert list comes out sorted
  for (const e of index.ordered) {
    if (visited.has(e.uuid)) continue;
    // a split line hangs on an earlier line of its own response, a tool result on the tool_use line;
    // a line merely sharing the id elsewhere (a rewound answer behind a gateway that reuses one id) is neither
    const parent = e.parent === null ? undefined : index.byUuid.get(e.parent);
    const owner = e.type === 'assistant' || hasToolResult(e) ? parent : undefined;
    const mid = owner === undefined ? undefined : messageIdOf(owner);
    if (mid !== undefined && e.type === 'assistant' && messageIdOf(e) !== mid) continue;
    const at = mid === undefined ? undefined : lastOfMessage.get(mid);
    if (at === undefined || e.isSidechain !== path[at]?.isSidechain) continue;
    visited.add(e.uuid);
    const list = inserts.get(at);
    if (list === undefined) inserts.set(at, [e]);
    else list.push(e);
  }
  if (inserts.size === 0) return path;
  const result: Entry[] = [];
  path.forEach((e, i) => {
    result.push(e);
    for (const extra of inserts.get(i) ?? []) result.push(extra);
  });
  return result;
}
