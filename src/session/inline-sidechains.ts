import type { Entry } from '../graph/entry.ts';
import type { EntrySet } from '../graph/entry-set.ts';
import { knownBlocks } from '../model/known-blocks.ts';
import { fillTimes } from '../model/time.ts';
import type { Atom, Sidechain, Turn } from '../model/types.ts';
import { spawnCalls } from '../tree/spawn-calls.ts';
import { toAtom, type AtomContext } from '../tree/to-atom.ts';

/**
 * The subagent conversations Claude Code ≤ 2.0.27 wrote into the parent's own file (lines with `isSidechain: true`
 * off the active path; transcript-format §2, §13), each as its atoms (`toAtom`), tied to the call that started it.
 *
 * A sidechain is a line with no sidechain parent written before it (its root: `parentUuid: null` in real files) and
 * every sidechain line hanging on it, in file order (a subagent never rewinds, and parallel subagents' lines are told
 * apart by their roots). It is tied to the first `Task` / `Agent` call not yet taken whose `input.prompt` equals its
 * first user text, the rule `linkSubagents` follows for 2.0.x agent files (1.0.x lines carry no `agentId`). One pass
 * over the lines, one map lookup each. A line without a time takes the previous line's (`fillTimes`).
 * @param ordered the graph's lines in file order (`GraphIndex.ordered`)
 * @param onPath the active path's lines
 * @param turns the session's turns (where the calls are)
 * @param ctx the session's rompUuid and postal lookup
 * @returns the sidechains in file order of their first lines (`tool_use_id` null: no call found), `undefined` when the
 *   session has no inline sidechain line
 */
export function inlineSidechains(
  ordered: readonly Entry[],
  onPath: Pick<EntrySet, 'has'>,
  turns: readonly Turn[],
  ctx: AtomContext,
): Sidechain[] | undefined {
  const chains: Atom[][] = [];
  const chainOf = new Map<string, Atom[]>();
  for (const e of ordered) {
    if (!e.isSidechain || onPath.has(e)) continue;
    const chain = (e.parent === null ? undefined : chainOf.get(e.parent)) ?? newChain(chains);
    chainOf.set(e.uuid, chain);
    const atom = toAtom(e, ctx);
    if (atom === undefined) continue;
    chain.push(atom);
  }
  if (chainOf.size === 0) return undefined;
  for (const chain of chains) fillTimes(chain);
  const byPrompt = new Map<string, string[]>();
  for (const call of spawnCalls(turns)) {
    if (call.prompt === '') continue;
    const ids = byPrompt.get(call.prompt);
    if (ids === undefined) byPrompt.set(call.prompt, [call.id]);
    else ids.push(call.id);
  }
  return chains
    .filter((atoms) => atoms.length > 0)
    .map((atoms) => ({ tool_use_id: byPrompt.get(firstPrompt(atoms))?.shift() ?? null, atoms }));
}

function newChain(chains: Atom[][]): Atom[] {
  const chain: Atom[] = [];
  chains.push(chain);
  return chain;
}

/** A sidechain's first user text (the prompt its call sent), `""` without one. */
function firstPrompt(chain: readonly Atom[]): string {
  const first = chain.find((a) => a.type === 'user');
  for (const block of knownBlocks(first?.message?.content)) if (block.type === 'text') return block.text;
  return '';
}
