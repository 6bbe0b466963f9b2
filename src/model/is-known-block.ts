import type { ContentBlock, MessageBlock } from './types.ts';

/** The block types `ContentBlock` covers; the tree stage checks their fields (`normaliseMessage`). */
const KNOWN = new Set(['text', 'thinking', 'redacted_thinking', 'tool_use', 'tool_result', 'image']);

/**
 * Whether a message's block is a known `ContentBlock` (then `block.type` narrows it), not an `OtherBlock`.
 * Trusts the tree stage: a block of a known type reaches the model only with its fields checked
 * (`normaliseMessage`; one that does not fit is renamed, see docs/model.md, "Content blocks").
 * @param block one entry of `message.content`
 * @returns true for `text`, `thinking`, `redacted_thinking`, `tool_use`, `tool_result` and `image` blocks
 */
export function isKnownBlock(block: MessageBlock): block is ContentBlock {
  return KNOWN.has(block.type);
}
