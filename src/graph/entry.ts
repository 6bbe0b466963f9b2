import type { RawRecord } from '../read/parse-line.ts';

/** The record types that carry `uuid`/`parentUuid` and form Claude Code's message graph. */
export const CHAIN_TYPES: ReadonlySet<string> = new Set(['user', 'assistant', 'attachment', 'system', 'progress']);

/**
 * One uuid-bearing transcript line, as the graph stage sees it.
 *
 * `parent` is the line's `parentUuid` with `progress` rows bridged over (transcript-format §8.1 step 2):
 * a line whose parent is a progress row points at that row's nearest non-progress ancestor instead.
 */
export interface Entry {
  uuid: string;
  /** Bridged parent uuid; `null` for a root. May name a uuid that was never written (a phantom). */
  parent: string | null;
  /**
   * The progress row the written `parentUuid` named, when `parent` bridges over it; on a progress row
   * the bridging passed, the progress row above it; else `undefined`.
   */
  via: Entry | undefined;
  type: string;
  subtype: string | undefined;
  isSidechain: boolean;
  /** `message.id` of an assistant line, shared by every line of one split API response; else `undefined`. */
  messageId: string | undefined;
  /** `timestamp` in epoch ms; `NaN` when missing or unreadable. */
  t: number;
  fsid: string;
  /** The file path as given. */
  file: string;
  line: number;
  byteOffset: number;
  /** Position in the session's file order (files ordered by their first timestamp). */
  seq: number;
  /** Position among the records of its own file. */
  fileSeq: number;
  /** Index in `GraphIndex.ordered` (set by `buildIndex`; -1 before, and for progress rows). */
  pos: number;
  /**
   * The line itself, less what the model never reads: `toolUseResult` is cleared (`collectFiles`), and a
   * progress row keeps no fields at all; both stay reachable by `file` and `line`.
   */
  record: RawRecord;
}

/**
 * The `message.id` of an assistant record, shared by every line of one split API response.
 * @param type the record's `type`
 * @param record the record
 * @returns the id, or `undefined` for other lines
 */
export function messageIdOf(type: string, record: RawRecord): string | undefined {
  if (type !== 'assistant') return undefined;
  const message = record['message'];
  if (typeof message !== 'object' || message === null) return undefined;
  const id = (message as { id?: unknown }).id;
  return typeof id === 'string' ? id : undefined;
}

/**
 * Whether a line is a `system` / `compact_boundary`.
 * @param entry a graph entry
 * @returns true for compaction boundaries
 */
export function isCompactBoundary(entry: Entry): boolean {
  return entry.type === 'system' && entry.subtype === 'compact_boundary';
}

/**
 * Whether a user line carries a `tool_result` block (the harness's answer to a `tool_use`).
 * @param entry a graph entry
 * @returns true for tool-result user lines
 */
export function hasToolResult(entry: Entry): boolean {
  return (
    entry.type === 'user' && holdsToolResult((entry.record['message'] as { content?: unknown } | undefined)?.content)
  );
}

/**
 * Whether message content holds a `tool_result` block.
 * @param content a message's `content` (a string, an array of blocks, or anything a broken line holds)
 * @returns true when one of its blocks is a `tool_result`
 */
export function holdsToolResult(content: unknown): boolean {
  return Array.isArray(content) && content.some((b) => (b as { type?: unknown } | null)?.type === 'tool_result');
}
