import { isKnownBlock } from './is-known-block.ts';
import type { ContentBlock, MessageBlock } from './types.ts';

/**
 * The known blocks of a message's content (`isKnownBlock`), in order, `OtherBlock`s left out, so
 * `block.type` narrows each one.
 * @param content a message's `content`, or `undefined` (an atom without a message)
 * @returns the known blocks (`[]` without content)
 */
export function knownBlocks(content: readonly MessageBlock[] | undefined): ContentBlock[] {
  return content === undefined ? [] : content.filter(isKnownBlock);
}
