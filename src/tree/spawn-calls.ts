import { knownBlocks } from '../model/known-blocks.ts';
import type { Turn } from '../model/types.ts';

/** The tools that spawn a subagent. */
export const SPAWNERS: ReadonlySet<string> = new Set(['Task', 'Agent']);

/** A `Task` / `Agent` tool call: its `tool_use` id and the prompt it sent (`input.prompt`, `""` without one). */
export interface SpawnCall {
  id: string;
  prompt: string;
}

/**
 * The session's `Task` / `Agent` calls, in conversation order (transcript-format §13: a subagent's first user
 * text is the call's `input.prompt`).
 * @param turns the session's turns
 * @returns the calls
 */
export function spawnCalls(turns: readonly Turn[]): SpawnCall[] {
  const calls: SpawnCall[] = [];
  for (const turn of turns)
    for (const atom of turn.atoms)
      for (const block of knownBlocks(atom.message?.content)) {
        if (block.type !== 'tool_use' || !SPAWNERS.has(block.name)) continue;
        const input = block.input;
        const prompt = typeof input === 'object' && input !== null && 'prompt' in input ? input.prompt : undefined;
        calls.push({ id: block.id, prompt: typeof prompt === 'string' ? prompt : '' });
      }
  return calls;
}
