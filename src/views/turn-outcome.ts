import { isKnownBlock } from '../model/is-known-block.ts';
import { knownBlocks } from '../model/known-blocks.ts';
import type { Atom, ResultPayload, ToolResultBlock, Turn } from '../model/types.ts';
import { HARNESS_TEXT, startsWithHarness } from '../tree/harness-text.ts';

/**
 * How a turn ended (issue 12, §2):
 * - `completed`: the last response's final `stop_reason` is `end_turn` / `stop_sequence` (or another
 *   final one, e.g. `refusal`), or a `result` success;
 * - `interrupted`: `[Request interrupted by user]` (streams: `terminal_reason` `aborted_*`);
 * - `rejected`: the user refused a tool call: an error `tool_result` with Claude Code's rejection text,
 *   then `[Request interrupted by user for tool use]`;
 * - `blocked`: a `UserPromptSubmit` hook stopped the prompt ("Operation stopped by hook: …", or the
 *   `system/informational` warning of a blocked prompt; streams: `terminal_reason` `hook_stopped`);
 * - `max_tokens`: the last response stopped at `max_tokens`;
 * - `api_error`: a `<synthetic>` assistant line with `isApiErrorMessage`, or a `result` error;
 * - `local`: a local command answered without a model call (`<local-command-stdout|stderr>`, or a `!`
 *   shell command's `<bash-stdout|stderr>`);
 * - `open`: still running, or cut off.
 */
export type TurnOutcome =
  'completed' | 'interrupted' | 'rejected' | 'blocked' | 'max_tokens' | 'api_error' | 'local' | 'open';

/** Claude Code's text for a tool call the user refused (its `REJECT_MESSAGE`, with or without feedback after it). */
const REJECTION = "The user doesn't want to proceed with this tool use";

/** `terminal_reason` values (stream-protocol §5.3) that say how the turn ended without an error. */
const TERMINAL: ReadonlyMap<string, TurnOutcome> = new Map([
  ['completed', 'completed'],
  ['aborted_streaming', 'interrupted'],
  ['aborted_tools', 'interrupted'],
  ['hook_stopped', 'blocked'],
  ['stop_hook_prevented', 'blocked'],
]);

/** Stop reasons after which the model goes on by itself. */
const CONTINUING: ReadonlySet<string> = new Set(['tool_use', 'pause_turn']);

/**
 * How a turn ended, read from its atoms (pure, never stored): the last thing that happened wins. A
 * response with `stop_reason` `null` on every line (Claude Code ≤ 2.1.20, the 2.1.2x–4x files) counts as
 * `completed` when the turn `ended`, else `open`; so does a turn that ended with nothing to say how
 * (no response, or a response still waiting for a tool: another turn followed it).
 *
 * On streams the turn's `result` decides: a success naming a `local_command` is `local`; else `terminal_reason`
 * (2.1.2xx+) when it names an ending above,
 * any other value `api_error`; without one, `subtype` `success` (and not `is_error`) is `completed`
 * (`max_tokens` when its `stop_reason` says so), an error is `api_error`, unless the turn's atoms
 * already say it was interrupted, rejected, blocked or local.
 *
 * @param turn a turn of either substrate
 * @returns its outcome
 */
export function turnOutcome(turn: Turn): TurnOutcome {
  let outcome: TurnOutcome | 'unknown' = 'open';
  let refused = false;
  let responded = false;
  let responseId: string | undefined;
  for (const atom of turn.atoms) {
    if (atom.type === 'result' && atom.result !== undefined) outcome = fromResult(atom.result, outcome);
    else if (atom.type === 'assistant') {
      if (atom.isApiErrorMessage === true) outcome = 'api_error';
      else if (atom.message?.model !== '<synthetic>') {
        // a split response: a later line without a stop_reason continues the one before
        const stop = atom.message?.stop_reason ?? null;
        const id = atom.message?.id;
        if (stop !== null) outcome = CONTINUING.has(stop) ? 'open' : stop === 'max_tokens' ? 'max_tokens' : 'completed';
        else if (id === undefined || id !== responseId) outcome = 'unknown';
        responseId = id;
      }
      responded = true;
    } else if (atom.type === 'user') {
      for (const block of knownBlocks(atom.message.content)) {
        if (block.type !== 'tool_result') continue;
        outcome = 'open'; // the model goes on with the result
        if (block.is_error === true && startsWithRejection(block.content)) refused = true;
      }
      const said = saysEnding(atom, refused, responded);
      if (said !== undefined) outcome = said;
      else if (atom.author !== undefined && atom.author !== 'system') outcome = 'open'; // a prompt: a request follows
    }
  }
  if (outcome === 'unknown') return turn.ended ? 'completed' : 'open';
  return outcome;
}

/** The ending a user atom's text (Claude Code's own) says, if any. */
function saysEnding(atom: Atom, refused: boolean, responded: boolean): TurnOutcome | undefined {
  const content = atom.message?.content;
  if (atom.subtype === 'informational') return 'blocked';
  if (startsWithHarness(content, HARNESS_TEXT.interruptForTool)) return refused ? 'rejected' : 'interrupted';
  if (startsWithHarness(content, HARNESS_TEXT.interrupt)) return 'interrupted';
  if (startsWithHarness(content, HARNESS_TEXT.hookStopped)) return 'blocked';
  if (!responded && startsWithHarness(content, HARNESS_TEXT.localOutput)) return 'local';
  return undefined;
}

function fromResult(r: ResultPayload, before: TurnOutcome | 'unknown'): TurnOutcome {
  const said = before === 'interrupted' || before === 'rejected' || before === 'blocked' || before === 'local';
  if (r.local_command !== undefined && r.subtype === 'success' && !r.is_error) return 'local';
  if (r.terminal_reason !== undefined) {
    const outcome = TERMINAL.get(r.terminal_reason) ?? 'api_error';
    if (outcome === 'completed') return said ? before : r.stop_reason === 'max_tokens' ? 'max_tokens' : 'completed';
    return outcome === 'interrupted' && before === 'rejected' ? 'rejected' : outcome;
  }
  if (said) return before;
  if (r.subtype === 'success' && !r.is_error) return r.stop_reason === 'max_tokens' ? 'max_tokens' : 'completed';
  return 'api_error';
}

function startsWithRejection(content: ToolResultBlock['content']): boolean {
  if (typeof content === 'string') return content.startsWith(REJECTION);
  const first = content?.[0];
  return first !== undefined && isKnownBlock(first) && first.type === 'text' && first.text.startsWith(REJECTION);
}
