import { knownBlocks } from '../model/known-blocks.ts';
import type { Author, Turn } from '../model/types.ts';
import { countAtomUsage, type Totals } from '../usage/count-usage.ts';
import { promptText, triggerAtom } from './prompt-text.ts';
import { SPAWNERS } from '../tree/spawn-calls.ts';
import { turnOutcome, type TurnOutcome } from './turn-outcome.ts';

/** One turn at a glance: what `romp turns --json` prints for each turn. Plain JSON. */
export interface TurnSummary {
  id: string;
  /** 1-based, as `romp show` numbers the turns. */
  index: number;
  /** uuid of the opener, `null` for an autonomous turn. */
  trigger: string | null;
  /** The opener's author; `null` without one. */
  author: Author | null;
  /** `promptText(turn)`. */
  prompt: string;
  /** `turnOutcome(turn)`. */
  outcome: TurnOutcome;
  /** Start and end (epoch ms), and the time between them (ms). */
  t: number;
  end: number;
  duration_ms: number;
  ended: boolean;
  /** How many atoms the turn holds. */
  atoms: number;
  /** `tool_use` calls by tool name (an object without prototype: tool names are transcript data). */
  tools: Record<string, number>;
  /** The turn's tokens, each API response once (`countAtomUsage`); its cost is `cost_usd`. */
  usage: Omit<Totals, 'cost_usd'>;
  /** USD, at the built-in prices (responses of unpriced models are left out, counted in `usage.unpriced`). */
  cost_usd: number;
  /** Subagents the turn started: its `Task` / `Agent` calls. */
  subagents: number;
}

/**
 * The summary of one turn (issue 12, §4): its opener and prompt, outcome, times, atom count, tool calls
 * by name, deduplicated usage and cost, subagent count. Pure. The raw atoms stay in the Session.
 * @param turn the turn
 * @param index its 1-based number in the session
 * @returns the summary
 */
export function summarizeTurn(turn: Turn, index: number): TurnSummary {
  const counts = new Map<string, number>();
  let subagents = 0;
  for (const atom of turn.atoms) {
    if (atom.type !== 'assistant') continue;
    for (const block of knownBlocks(atom.message.content)) {
      if (block.type !== 'tool_use') continue;
      const name = block.name;
      counts.set(name, (counts.get(name) ?? 0) + 1);
      if (SPAWNERS.has(name)) subagents++;
    }
  }
  const tools = Object.create(null) as Record<string, number>;
  for (const [name, count] of counts) tools[name] = count;
  const { cost_usd, ...usage } = countAtomUsage(turn.atoms);
  const trigger = triggerAtom(turn);
  return {
    id: turn.id,
    index,
    trigger: turn.trigger?.uuid ?? null,
    author: trigger?.author ?? null,
    prompt: promptText(turn),
    outcome: turnOutcome(turn),
    t: turn.t,
    end: turn.end,
    duration_ms: turn.end - turn.t,
    ended: turn.ended,
    atoms: turn.atoms.length,
    tools,
    usage,
    cost_usd,
    subagents,
  };
}
