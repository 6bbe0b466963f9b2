import type { QueueOperation } from '../session/collect-files.ts';
import type { Atom } from '../model/types.ts';
import type { TurnEndMarker } from './build-turns.ts';

/**
 * Prompts typed while Claude was busy that exist on disk only as `queue-operation` records
 * (known-failures F14): before 2.1.112 a prompt absorbed into the running turn was not written as a
 * line at all, only `enqueue` (with its text) … `remove`. Each such prompt becomes a generated user
 * atom, uuid `queued:<fsid>:<line of the enqueue>`, at the time of its `remove`, by `human` (a
 * `<task-notification>` by `system`).
 *
 * The queue is replayed in file order: `enqueue` adds, `dequeue` takes the oldest (it became a normal
 * prompt line), `remove` takes the oldest (absorbed, unless its 2.1.332 `reason` says it was dropped),
 * `popOne` / `popAll` take one or all back to the input box. A prompt that a `queued_command`
 * attachment already carries (2.1.112+) is not generated twice.
 *
 * @param queue the session's queue operations, in file order
 * @param items the path's atoms (for the attachments already there)
 * @param rompUuid the session's identity
 * @returns the generated atoms, in time order
 */
export function queuedPrompts(queue: QueueOperation[], items: ReadonlyArray<Atom | TurnEndMarker>, rompUuid: string): Atom[] {
  const known = new Set<string>();
  for (const item of items) {
    if (item.type !== 'user') continue;
    const text = ((item as Atom).message?.content[0] as { text?: unknown } | undefined)?.text;
    if (typeof text === 'string') known.add(text);
  }
  const waiting: QueueOperation[] = [];
  const out: Atom[] = [];
  for (const op of queue) {
    if (op.operation === 'enqueue') waiting.push(op);
    else if (op.operation === 'dequeue' || op.operation === 'popOne') waiting.shift();
    else if (op.operation === 'popAll') waiting.length = 0;
    else if (op.operation === 'remove') {
      const taken = waiting.shift();
      if (taken === undefined || op.reason !== undefined || typeof taken.content !== 'string' || known.has(taken.content)) continue;
      const t = Number.isNaN(op.t) ? taken.t : op.t;
      if (Number.isNaN(t)) continue;
      out.push({
        type: 'user',
        uuid: `queued:${taken.fsid}:${taken.line}`,
        session_id: rompUuid,
        t,
        fsid: taken.fsid,
        message: { role: 'user', content: [{ type: 'text', text: taken.content }] },
        author: taken.content.trimStart().startsWith('<task-notification>') ? 'system' : 'human',
      });
    }
  }
  return out;
}
