import { knownBlocks } from '../model/known-blocks.ts';
import { isKnownBlock } from '../model/is-known-block.ts';
import type { Atom } from '../model/types.ts';
import type { ToolResult } from './tool-results.ts';

/** Atoms shown together: one atom, or a run of tool-only atoms with two or more calls (`group`). */
export interface AtomRun {
  atoms: Atom[];
  group: boolean;
  /** The tool names of the run's calls, in order (a group's summary). */
  tools: string[];
}

/**
 * Whether an atom holds nothing but tool calls (an assistant atom of `tool_use` blocks only), or
 * nothing but results shown with their calls (a user atom of `tool_result` blocks, each the first
 * result of its id).
 * @param atom the atom
 * @param results the session's tool results by id
 * @returns whether it is tool-only
 */
export function isToolOnly(atom: Atom, results: ReadonlyMap<string, ToolResult>): boolean {
  const content = atom.message?.content ?? [];
  if (content.length === 0) return false;
  if (atom.type === 'assistant') return content.every((b) => b.type === 'tool_use');
  return (
    atom.type === 'user' &&
    atom.author === undefined &&
    content.every((b) => isKnownBlock(b) && b.type === 'tool_result' && results.get(b.tool_use_id)?.atom === atom)
  );
}

/**
 * How a page or an export lays out a turn's atoms: consecutive tool-only atoms (`isToolOnly`) with two
 * or more calls between them become one group ("6 tool calls"); every other atom stands alone.
 * @param atoms the atoms, in order
 * @param results the session's tool results by id
 * @returns the runs, in order, covering every atom once
 */
export function atomRuns(atoms: readonly Atom[], results: ReadonlyMap<string, ToolResult>): AtomRun[] {
  const runs: AtomRun[] = [];
  for (let i = 0; i < atoms.length;) {
    let j = i;
    while (j < atoms.length && isToolOnly(atoms[j] as Atom, results)) j++;
    if (j === i) j = i + 1;
    const run = atoms.slice(i, j);
    const tools = run.flatMap((a) =>
      a.type === 'assistant'
        ? knownBlocks(a.message.content).flatMap((b) => (b.type === 'tool_use' ? [b.name] : []))
        : [],
    );
    if (tools.length >= 2 && run.every((a) => isToolOnly(a, results))) runs.push({ atoms: run, group: true, tools });
    else for (const atom of run) runs.push({ atoms: [atom], group: false, tools: [] });
    i = j;
  }
  return runs;
}

/**
 * A group's summary: `6 tool calls · Bash ×3, Read ×3`.
 * @param tools the tool names of the run's calls
 * @returns the text
 */
export function groupSummary(tools: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const name of tools) counts.set(name, (counts.get(name) ?? 0) + 1);
  return `${tools.length} tool calls · ${[...counts].map(([name, n]) => (n === 1 ? name : `${name} ×${n}`)).join(', ')}`;
}
