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
  for (const [mid, at] of lastOfMessage) {
    const found: Entry[] = [];
    const take = (e: Entry): void => {
      if (visited.has(e.uuid) || e.isSidechain !== path[at]?.isSidechain) return;
      visited.add(e.uuid);
      found.push(e);
    };
    const group = index.byMessageId.get(mid) ?? [];
    for (const sibling of group) take(sibling);
    for (const line of group) for (const child of index.children.get(line.uuid) ?? []) if (hasToolResult(child)) take(child);
    if (found.length > 0) inserts.set(at, found.sort((a, b) => a.seq - b.seq));
  }
  if (inserts.size === 0) return path;
  return path.flatMap((e, i) => [e, ...(inserts.get(i) ?? [])]);
}
