import { diagnostic, type OnDiagnostic } from '../diagnostics/diagnostic.ts';
import type { GraphIndex } from './build-index.ts';
import { isCompactBoundary, type Entry } from './entry.ts';

/** Parent links replaced for the context view: child uuid → new parent uuid. */
export type ParentOverrides = Map<string, string>;

interface PreservedSegment {
  headUuid?: unknown;
  anchorUuid?: unknown;
  tailUuid?: unknown;
}
interface PreservedMessages {
  anchorUuid?: unknown;
  uuids?: unknown;
}

/**
 * The relink Claude Code applies on resume after a compaction that kept recent messages verbatim
 * (transcript-format §8.1 step 3, §8.2; the Agent SDK's rule, anthropics/claude-agent-sdk-typescript#431).
 *
 * Only the last `compact_boundary` in file order counts. Preserved rows were not rewritten, so on disk
 * they still point into pre-compaction history; the relink hangs them after the compact summary:
 * - `compactMetadata.preservedMessages {anchorUuid, uuids}` (2.1.200+): `anchor → uuids[0] → … →
 *   uuids[n-1]`, in list order, when every listed uuid is in the files;
 * - else `preservedSegment {headUuid, anchorUuid, tailUuid}` (2.1.80+): when the walk tail → head by
 *   `parentUuid` holds, `head → anchor`;
 * - either way, every other line whose parent is the anchor moves to the tail.
 * A relink that cannot be applied gives `PRESERVED_RELINK_SKIPPED` (info) and no overrides.
 *
 * @param index the graph index
 * @param onDiagnostic receives `PRESERVED_RELINK_SKIPPED`
 * @returns the parent overrides (empty when there is nothing to relink)
 */
export function relinkPreserved(index: GraphIndex, onDiagnostic: OnDiagnostic): ParentOverrides {
  const overrides: ParentOverrides = new Map();
  const boundary = index.ordered.findLast((e) => isCompactBoundary(e) && !e.isSidechain);
  if (boundary === undefined) return overrides;
  const raw = boundary.record['compactMetadata'];
  const metadata = (isObject(raw) ? raw : {}) as {
    preservedMessages?: PreservedMessages;
    preservedSegment?: PreservedSegment;
  };
  const chain = preservedChain(index, metadata);
  if (chain === undefined) return overrides;
  if (chain === 'broken') {
    onDiagnostic(
      diagnostic('PRESERVED_RELINK_SKIPPED', 'preserved messages of the last compaction are not all in the files', {
        file: boundary.file,
        line: boundary.line,
        byteOffset: boundary.byteOffset,
        uuid: boundary.uuid,
      }),
    );
    return overrides;
  }
  const [anchor, uuids] = chain;
  const head = uuids[0];
  const tail = uuids.at(-1);
  if (head === undefined || tail === undefined) return overrides;
  uuids.forEach((uuid, i) => overrides.set(uuid, i === 0 ? anchor : (uuids[i - 1] ?? anchor)));
  for (const e of index.ordered) if (e.parent === anchor && e.uuid !== head) overrides.set(e.uuid, tail);
  return overrides;
}

/** The anchor and the preserved uuids in conversation order; `'broken'` when not all are there. */
function preservedChain(
  index: GraphIndex,
  metadata: { preservedMessages?: PreservedMessages; preservedSegment?: PreservedSegment },
): [string, string[]] | 'broken' | undefined {
  const messages: PreservedMessages | undefined = isObject(metadata.preservedMessages)
    ? metadata.preservedMessages
    : undefined;
  if (messages !== undefined && typeof messages.anchorUuid === 'string' && Array.isArray(messages.uuids)) {
    const uuids = messages.uuids.filter((u): u is string => typeof u === 'string');
    if (uuids.length === 0) return undefined;
    return uuids.every((u) => index.byUuid.has(u)) ? [messages.anchorUuid, uuids] : 'broken';
  }
  const segment: PreservedSegment | undefined = isObject(metadata.preservedSegment)
    ? metadata.preservedSegment
    : undefined;
  if (segment === undefined) return undefined;
  const { headUuid, anchorUuid, tailUuid } = segment;
  if (typeof headUuid !== 'string' || typeof anchorUuid !== 'string' || typeof tailUuid !== 'string') return 'broken';
  const walked: string[] = [];
  let cur: Entry | undefined = index.byUuid.get(tailUuid);
  while (cur !== undefined && walked.length <= index.ordered.length) {
    walked.push(cur.uuid);
    if (cur.uuid === headUuid) return [anchorUuid, walked.reverse()];
    cur = cur.parent === null ? undefined : index.byUuid.get(cur.parent);
  }
  return 'broken';
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
