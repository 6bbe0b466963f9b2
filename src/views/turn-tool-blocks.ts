import { knownBlocks } from '../model/known-blocks.ts';
import type { Atom, ToolResultBlock, ToolUseBlock, Turn } from '../model/types.ts';

/** A `tool_use` or `tool_result` block of a turn, with its atom. */
export interface ToolBlock {
  atom: Atom;
  block: ToolUseBlock | ToolResultBlock;
}

/** Each turn's tool blocks, as last found: a live session's finished turns are the same objects from one snapshot to
 * the next, so an append walks the blocks of its own turns only. */
const found = new WeakMap<Turn, readonly ToolBlock[]>();

/**
 * The `tool_use` and `tool_result` blocks of a turn's atoms (`knownBlocks`), in atom and block order: what
 * `toolCalls` pairs and `linkSubagents` links. Found once per Turn object (a Turn is never changed once made: a
 * snapshot that changes a turn makes a new one).
 * @param turn the turn
 * @returns its tool blocks, shared between calls (not to be changed)
 */
export function turnToolBlocks(turn: Turn): readonly ToolBlock[] {
  let blocks = found.get(turn);
  if (blocks === undefined) {
    const list: ToolBlock[] = [];
    for (const atom of turn.atoms)
      for (const block of knownBlocks(atom.message?.content))
        if (block.type === 'tool_use' || block.type === 'tool_result') list.push({ atom, block });
    found.set(turn, (blocks = list));
  }
  return blocks;
}
