import { knownBlocks } from '../model/known-blocks.ts';
import type { Session } from '../model/types.ts';
import { toolResultText } from '../model/tool-result-text.ts';
import { toolCalls } from './tool-calls.ts';

/** Tools whose result is a choice the user made (seed, "decision is a content tag"). */
export const DECISION_TOOLS: ReadonlySet<string> = new Set(['AskUserQuestion', 'ExitPlanMode']);

/** A decision: the `tool_result` answering an `AskUserQuestion` or `ExitPlanMode` call. */
export interface Decision {
  /** The user atom carrying the result, and the index of the `tool_result` block in its content. */
  uuid: string;
  block: number;
  tool_use_id: string;
  tool: string;
  /** The choice as the result states it: its text (answers, or the plan approval / rejection). */
  choice: string;
  /** A rejected plan or a refused question comes back as an error result. */
  is_error: boolean;
  turnId: string;
}

/**
 * The decisions of a session (seed, "Authorship, position…": a tool_result whose tool_use was
 * AskUserQuestion or ExitPlanMode), read from content, never stored. Permission allow/deny is not a
 * decision (no line after the choice to anchor it).
 * @param session the session
 * @returns the decisions, in atom order
 */
export function decisions(session: Session): Decision[] {
  const atoms = new Map(session.turns.flatMap((t) => t.atoms.map((a) => [a.uuid, a] as const)));
  const out: Decision[] = [];
  for (const call of toolCalls(session)) {
    if (!DECISION_TOOLS.has(call.name) || call.resultUuid === null) continue;
    const atom = atoms.get(call.resultUuid);
    const content = atom?.message?.content ?? [];
    const result = knownBlocks(content).find((b) => b.type === 'tool_result' && b.tool_use_id === call.tool_use_id);
    const block = result === undefined ? -1 : content.indexOf(result);
    out.push({
      uuid: call.resultUuid,
      block,
      tool_use_id: call.tool_use_id,
      tool: call.name,
      choice: toolResultText(result?.type === 'tool_result' ? result.content : undefined),
      is_error: call.is_error,
      turnId: call.turnId,
    });
  }
  return out;
}
