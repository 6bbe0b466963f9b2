import type { CompactMetadata } from '../model/types.ts';

/** The field names of `compactMetadata` as each substrate writes them. */
const KEYS = {
  /** Transcripts: `compactMetadata {trigger, preTokens, postTokens, durationMs, preservedSegment {headUuid, anchorUuid,
   * tailUuid}}`. */
  camel: ['preTokens', 'postTokens', 'durationMs', 'preservedSegment', 'headUuid', 'anchorUuid', 'tailUuid'],
  /** The stream: `compact_metadata` with the same fields in snake_case. */
  snake: ['pre_tokens', 'post_tokens', 'duration_ms', 'preserved_segment', 'head_uuid', 'anchor_uuid', 'tail_uuid'],
} as const;

/**
 * A compaction's metadata in the model's snake_case, from a transcript's `compactMetadata` (`camel`) or
 * the stream's `compact_metadata` (`snake`): `trigger` (`unknown` without one), `pre_tokens` (0 without),
 * and `post_tokens`, `duration_ms`, `preserved_segment` where written with the right types.
 * @param raw the metadata as written (anything: a broken line may hold anything)
 * @param keys which names it uses
 * @returns the metadata
 */
export function compactMetadata(raw: unknown, keys: keyof typeof KEYS): CompactMetadata {
  const [pre, post, duration, segmentKey, headKey, anchorKey, tailKey] = KEYS[keys];
  const m = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
  const metadata: CompactMetadata = {
    trigger: typeof m['trigger'] === 'string' ? m['trigger'] : 'unknown',
    pre_tokens: typeof m[pre] === 'number' ? m[pre] : 0,
  };
  if (typeof m[post] === 'number') metadata.post_tokens = m[post];
  if (typeof m[duration] === 'number') metadata.duration_ms = m[duration];
  const segment = m[segmentKey] as Record<string, unknown> | undefined;
  const [head, anchor, tail] = [segment?.[headKey], segment?.[anchorKey], segment?.[tailKey]];
  if (typeof head === 'string' && typeof anchor === 'string' && typeof tail === 'string') {
    metadata.preserved_segment = { head_uuid: head, anchor_uuid: anchor, tail_uuid: tail };
  }
  return metadata;
}
