import type { GraphIndex } from './build-index.ts';
import { hasToolResult, type Entry } from './entry.ts';
import type { EntrySet } from './entry-set.ts';

/**
 * Puts back the lines of the active path that lie off the `parentUuid` walk (transcript-format §8.1
 * step 7, Claude Code 2.1.80+): for every `message.id` on the path, its assistant lines that the walk
 * skipped, and the tool-result lines answering any of them. Parallel tool calls branch the graph (each
 * result points at its own `tool_use` line), so without this a walk from the leaf keeps one result and
 * loses the others.
 *
 * A line comes back when it hangs on a line of its response that is on the path or put back itself:
 * an assistant line of the same `message.id` on one of that response's lines or on one of its tool
 * results (streaming tool execution, 2.1.x: a later `tool_use` line can hang on an earlier call's
 * result), a tool-result line on one of its assistant lines. Repeated until nothing more comes back, by
 * a worklist (each line is looked at once). A line merely sharing the id elsewhere (a rewound answer or
 * its tool results, behind a gateway that reuses one id, known-failures F4) hangs on neither and stays
 * off.
 *
 * The lines of one response go after its last path line, in file position (the order the current
 * Claude Code sends the model: `tool_use` 1, its result, `tool_use` 2, …; the Agent SDK reader puts
 * calls first, then results, each by time), and are added to `visited`. A line whose `isSidechain`
 * differs from that path line's stays off.
 *
 * @param path the walked path, root → leaf
 * @param index the graph index
 * @param visited the entries of `path`; updated
 * @param responses receives the `message.id` of each response that had lines put back
 * @param from the first position in `index.ordered` whose lines may come back (the live builder
 *   resolving the open response again gives its first line's: nothing before it hangs on it)
 * @returns the path with the recovered lines inserted
 */
export function recoverParallel(
  path: Entry[],
  index: GraphIndex,
  visited: EntrySet,
  responses: Set<string>,
  from = 0,
): Entry[] {
  // the off-path lines that may come back, by the uuid they hang on
  const hanging = new Map<string, Entry[]>();
  for (let i = from; i < index.ordered.length; i++) {
    const e = index.ordered[i] as Entry;
    if (visited.has(e) || e.parent === null || (e.type === 'assistant' ? e.messageId === undefined : !hasToolResult(e)))
      continue;
    const list = hanging.get(e.parent);
    if (list === undefined) hanging.set(e.parent, [e]);
    else list.push(e);
  }
  if (hanging.size === 0) return path;
  // where each response's lines go: after its last path line
  const lastOfMessage = new Map<string, number>();
  path.forEach((e, i) => {
    if (e.messageId !== undefined) lastOfMessage.set(e.messageId, i);
  });

  // the worklist: lines on the path or put back, each with the response it belongs to
  const work: Array<[line: Entry, mid: string]> = [];
  for (const e of path) {
    if (!hanging.has(e.uuid)) continue;
    // a tool result on the path belongs to the response of the call it hangs on
    const mid =
      e.type === 'assistant'
        ? e.messageId
        : e.parent !== null && hasToolResult(e)
          ? index.byUuid.get(e.parent)?.messageId
          : undefined;
    if (mid !== undefined && lastOfMessage.has(mid)) work.push([e, mid]);
  }
  const taken: Array<[line: Entry, at: number]> = [];
  for (let item = work.pop(); item !== undefined; item = work.pop()) {
    const [line, mid] = item;
    const at = lastOfMessage.get(mid) as number;
    for (const e of hanging.get(line.uuid) ?? []) {
      if (visited.has(e) || e.isSidechain !== path[at]?.isSidechain) continue;
      // an assistant line of this response, or a tool result under one of its calls
      if (e.type === 'assistant' ? e.messageId !== mid : line.type !== 'assistant') continue;
      visited.add(e);
      taken.push([e, at]);
      responses.add(mid);
      if (hanging.has(e.uuid)) work.push([e, mid]);
    }
  }
  if (taken.length === 0) return path;
  taken.sort((a, b) => a[0].pos - b[0].pos);
  const inserts = new Map<number, Entry[]>();
  for (const [e, at] of taken) {
    const list = inserts.get(at);
    if (list === undefined) inserts.set(at, [e]);
    else list.push(e);
  }
  const result: Entry[] = [];
  path.forEach((e, i) => {
    result.push(e);
    for (const extra of inserts.get(i) ?? []) result.push(extra);
  });
  return result;
}
