import { diagnostic, type OnDiagnostic } from '../diagnostics/diagnostic.ts';
import type { GraphIndex } from './build-index.ts';
import { CHAIN_TYPES, isCompactBoundary, type Entry } from './entry.ts';

/** A `last-prompt` record carrying `leafUuid` (Claude Code 2.1.200+): a leaf checkpoint. */
export interface Checkpoint {
  leafUuid: string | null;
  /** `leafUuid: null` with `explicit: true` means the conversation was cleared to empty. */
  explicit: boolean;
  /** Position in the session's file order, comparable with `Entry.seq`. */
  seq: number;
  /** Position among the records of its own file. */
  fileSeq: number;
  file: string;
  line: number;
  byteOffset: number;
}

/**
 * Chooses where the walk starts, as Claude Code's resume does (transcript-format §8.1 step 4, §8.2).
 *
 * - Default: the last non-sidechain line in file order (a sidechain-only file: its last line). Starting
 *   there, not at the nearest user/assistant above it, keeps trailing rows (`turn_duration`, attachments)
 *   that 2.1.200+ append after the leaf.
 * - With `history` (the `full` view; the `context` view resumes what Claude Code resumes), unless that
 *   line's branch holds no assistant line at all while the last assistant line lies on
 *   another branch: 1.0.x hangs local commands and `!` shell lines off the file's first line, so the
 *   last command would otherwise hide the whole conversation. Then the walk starts at the last
 *   assistant line (`COMMAND_BRANCH`, info); the command lines stay as records.
 * - A `last-prompt` checkpoint written after that line wins: its `leafUuid` is the leaf (a rewind
 *   exited without sending), unless the last line merely trails it (only non-message rows between). `leafUuid: null`
 * with `explicit`
 *   means cleared: `SESSION_CLEARED`, no leaf. A leaf uuid that is not in the files gives
 *   `LEAF_CHECKPOINT_UNRESOLVED` and the default.
 *
 * @param index the graph index
 * @param checkpoints the session's checkpoints in file order
 * @param onDiagnostic receives the diagnostics above
 * @param history whether to step over a command-only last branch
 * @returns the entry to start the walk at, or `undefined` for an empty conversation
 */
export function pickLeaf(
  index: GraphIndex,
  checkpoints: Checkpoint[],
  onDiagnostic: OnDiagnostic,
  history = true,
): Entry | undefined {
  const last = history ? withoutCommandBranch(index, lastLine(index.ordered), onDiagnostic) : lastLine(index.ordered);
  return applyCheckpoint(index, checkpoints.at(-1), last, onDiagnostic);
}

/**
 * The leaf a session's last checkpoint gives (see `pickLeaf`): `last` when there is none, when it was
 * written before `last`, when it names no leaf without `explicit`, when its leaf is not in the files
 * (`LEAF_CHECKPOINT_UNRESOLVED`) or when `last` merely trails it; `undefined` when it says cleared
 * (`SESSION_CLEARED`); else its leaf.
 * @param index the graph index
 * @param checkpoint the session's last checkpoint
 * @param last the line the walk starts at without it
 * @param onDiagnostic receives the diagnostics above
 * @returns the leaf
 */
export function applyCheckpoint(
  index: GraphIndex,
  checkpoint: Checkpoint | undefined,
  last: Entry | undefined,
  onDiagnostic: OnDiagnostic,
): Entry | undefined {
  if (checkpoint === undefined || (last !== undefined && checkpoint.seq < last.seq)) return last;
  const place = { file: checkpoint.file, line: checkpoint.line, byteOffset: checkpoint.byteOffset };
  if (checkpoint.leafUuid === null) {
    if (!checkpoint.explicit) return last;
    onDiagnostic(diagnostic('SESSION_CLEARED', 'last-prompt checkpoint says the conversation was cleared', place));
    return undefined;
  }
  const target = index.alias(checkpoint.leafUuid);
  const leaf = target === null ? undefined : index.byUuid.get(target);
  if (leaf === undefined) {
    onDiagnostic(
      diagnostic('LEAF_CHECKPOINT_UNRESOLVED', `checkpoint leaf ${checkpoint.leafUuid} is not in the files`, {
        ...place,
        uuid: checkpoint.leafUuid,
      }),
    );
    return last;
  }
  return last !== undefined && trails(index, last, leaf) ? last : leaf;
}

function withoutCommandBranch(
  index: GraphIndex,
  last: Entry | undefined,
  onDiagnostic: OnDiagnostic,
): Entry | undefined {
  if (last === undefined) return last;
  const answer = index.ordered.findLast((e) => e.type === 'assistant' && e.isSidechain === last.isSidechain);
  if (answer === undefined) return last;
  const seen = new Set<Entry>();
  for (let cur: Entry = last; ;) {
    // replies of its own (or `answer` itself), or a compaction: a real branch
    if (cur.type === 'assistant' || isCompactBoundary(cur)) return last;
    if (cur.parent === null) break;
    const parent = index.byUuid.get(cur.parent);
    // a phantom parent or a cycle: the walk's own fallbacks decide
    if (parent === undefined || seen.has(parent) || parent === cur) return last;
    seen.add(cur);
    cur = parent;
  }
  onDiagnostic(
    diagnostic(
      'COMMAND_BRANCH',
      `the last line's branch holds no reply; the conversation is taken to end at ${answer.uuid}`,
      {
        file: last.file,
        line: last.line,
        byteOffset: last.byteOffset,
        uuid: last.uuid,
      },
    ),
  );
  return answer;
}

/**
 * The last non-sidechain line of a message type (a row of a type this reader does not know is never the
 * leaf: F13); a sidechain-only session's last line.
 * @param ordered the index's lines in file order
 * @returns the line, or `undefined` when there is none
 */
export function lastLine(ordered: Entry[]): Entry | undefined {
  let fallback: Entry | undefined;
  for (let i = ordered.length - 1; i >= 0; i--) {
    const e = ordered[i] as Entry;
    if (!CHAIN_TYPES.has(e.type)) continue;
    if (!e.isSidechain) return e;
    fallback ??= e;
  }
  return fallback;
}

/** Whether `leaf` is reached from `last` through non-user/assistant rows only (trailing system rows). */
function trails(index: GraphIndex, last: Entry, leaf: Entry): boolean {
  let cur: Entry | undefined = last;
  for (let steps = 0; cur !== undefined && steps <= index.ordered.length; steps++) {
    if (cur === leaf) return true;
    if (cur.type === 'user' || cur.type === 'assistant') return false;
    cur = cur.parent === null ? undefined : index.byUuid.get(cur.parent);
  }
  return false;
}
