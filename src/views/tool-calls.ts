import { knownBlocks } from '../model/known-blocks.ts';
import type { Atom, Session } from '../model/types.ts';
import { toolResultText } from '../model/tool-result-text.ts';
import { isKnownTime } from '../model/time.ts';

/** A `tool_use` and its `tool_result`, paired by id on the active path. */
export interface ToolCall {
  tool_use_id: string;
  name: string;
  input: unknown;
  /** uuid of the assistant atom with the `tool_use`; `null` for an orphan result. */
  useUuid: string | null;
  /** uuid of the user atom with the `tool_result`; `null` while (or when) no result came. */
  resultUuid: string | null;
  /** Time of the use and of the result (epoch ms); `duration_ms` between them (negative only when the file's clock went
   * back), `null` without both or when a time is unknown (`isKnownTime`). */
  t: number | null;
  end: number | null;
  duration_ms: number | null;
  is_error: boolean;
  /** The result's text when it is an error (`is_error`), else `null`. */
  error: string | null;
  /** Id of the turn holding the use (else the result). */
  turnId: string;
}

/**
 * Every tool call of a session (issue #5, "Tool calls"): each `tool_use` paired with its `tool_result`
 * by `tool_use_id`, within this session's active path only (never across sessions). Orphans are kept:
 * a use without a result (`resultUuid: null`: pending, interrupted or never written) and a result
 * without a use (`useUuid: null`: rewritten during self-healing or on a rewound branch, known-failures
 * F11). Pure; in atom order.
 * @param session the session
 * @returns the calls
 */
export function toolCalls(session: Session): ToolCall[] {
  const calls = new Map<string, ToolCall>();
  const order: ToolCall[] = [];
  for (const turn of session.turns) {
    for (const atom of turn.atoms) {
      for (const b of knownBlocks(atom.message?.content)) {
        if (atom.type === 'assistant' && b.type === 'tool_use') {
          const call: ToolCall = {
            tool_use_id: b.id,
            name: b.name,
            input: b.input,
            useUuid: atom.uuid,
            resultUuid: null,
            t: atom.t,
            end: null,
            duration_ms: null,
            is_error: false,
            error: null,
            turnId: turn.id,
          };
          calls.set(b.id, call);
          order.push(call);
        } else if (b.type === 'tool_result') {
          settle(
            calls.get(b.tool_use_id),
            atom,
            b.is_error === true ? toolResultText(b.content) : null,
            b.tool_use_id,
            turn.id,
            calls,
            order,
          );
        }
      }
    }
  }
  return order;
}

/** Pairs a result (its error text, `null` when it is no error) with its call, or keeps it as an orphan. */
function settle(
  call: ToolCall | undefined,
  atom: Atom,
  error: string | null,
  id: string,
  turnId: string,
  calls: Map<string, ToolCall>,
  order: ToolCall[],
): void {
  if (call !== undefined && call.resultUuid === null) {
    call.resultUuid = atom.uuid;
    call.end = atom.t;
    call.duration_ms = call.t === null || !isKnownTime(call.t) || !isKnownTime(atom.t) ? null : atom.t - call.t;
    call.is_error = error !== null;
    call.error = error;
    return;
  }
  const orphan: ToolCall = {
    tool_use_id: id,
    name: '',
    input: undefined,
    useUuid: null,
    resultUuid: atom.uuid,
    t: null,
    end: atom.t,
    duration_ms: null,
    is_error: error !== null,
    error,
    turnId,
  };
  if (call === undefined) calls.set(id, orphan);
  order.push(orphan);
}
