import type { Session } from '../model/types.ts';
import { wantedToolCalls } from '../views/tool-calls.ts';
import { toolLabel } from '../views/tool-label.ts';
import { capText } from './block-text.ts';
import type { ToolCallRow } from './row-types.ts';

/**
 * The session's tool calls (`toolCalls`: each `tool_use` paired with its `tool_result` on the active
 * path, orphans kept) as rows. The output is not copied: it is the result block's row in `blocks`.
 * @param session the session
 * @param sessionKey its key
 * @param links subagent transcripts by spawning `tool_use_id` (their session keys)
 * @param cap characters of error text kept
 * @param wanted the turns whose calls become rows (default all; keys count every call all the same, and only the
 * wanted turns' calls are made: `wantedToolCalls`)
 * @returns the rows, in atom order; a repeated id's key gets `#2`, `#3`, …
 */
export function toolCallRows(
  session: Session,
  sessionKey: string,
  links: ReadonlyArray<{ tool_use_id: string; key: string }>,
  cap: number,
  wanted: (turnKey: string) => boolean = () => true,
): ToolCallRow[] {
  const spawned = new Map(links.map((l) => [l.tool_use_id, l.key]));
  return wantedToolCalls(session, wanted).map(([call, n]) => ({
    key: n === 1 ? call.tool_use_id : `${call.tool_use_id}#${n}`,
    session_key: sessionKey,
    turn_key: call.turnId,
    tool_use_id: call.tool_use_id,
    name: call.name,
    input_summary: call.useUuid === null ? '' : toolLabel(call.name, call.input),
    use_key: call.useUuid,
    result_key: call.resultUuid,
    t: call.t,
    end: call.end,
    duration_ms: call.duration_ms,
    is_error: call.is_error,
    error: call.error === null ? null : capText(call.error, cap),
    subagent_key: spawned.get(call.tool_use_id) ?? null,
  }));
}
