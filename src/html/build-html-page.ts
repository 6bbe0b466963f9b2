import { diagnostic, type Diagnostic } from '../diagnostics/diagnostic.ts';
import type { Session } from '../model/types.ts';
import { parseSession, type ParseOptions } from '../session/parse-session.ts';
import { countAtomUsage } from '../usage/count-usage.ts';
import { findSubagents, parseSubagent } from '../views/subagents.ts';
import { readBranches, type Branch } from './read-branches.ts';
import { readPatches } from './read-patches.ts';
import type { RenderContext, SubagentView } from './render-context.ts';
import { renderPage } from './render-page.ts';

/** Options of `buildHtmlPage`: those of `parseSession` (its `view` is ignored: a page holds both), and `live`. */
export interface HtmlPageOptions extends Omit<ParseOptions, 'view'> {
  /** A page of `romp serve` (live updates). */
  live?: boolean;
  /** The session, when the caller already has it (the `full` view of the same files): not parsed again. */
  session?: Session;
}

/**
 * `romp html`: the page of one session (`renderPage`), with what the parse leaves out read back:
 * Claude Code's edit hunks (`readPatches`), the rewound branches (`readBranches`), the subagents
 * (`findSubagents`, each parsed and shown under its call, with its models and cost), and, when the
 * session was compacted, the atoms of the `context` view (a second parse), so the page can switch.
 * @param files the session's transcript files
 * @param options parse options, `live`
 * @returns the page, the parse's diagnostics and one `HTML_TRUNCATED` per cut
 */
export async function buildHtmlPage(files: string[], options: HtmlPageOptions = {}): Promise<{ html: string; session: Session; diagnostics: Diagnostic[] }> {
  const { live, session: given, ...parse } = options;
  const parsed = given === undefined ? await parseSession(files, { ...parse, view: 'full' }) : { session: given, diagnostics: [] };
  const session = parsed.session;
  const compacted = session.turns.some((t) => t.atoms.some((a) => a.type === 'system' && a.subtype === 'compact_boundary'));
  const context = compacted ? new Set((await parseSession(files, { ...parse, view: 'context' })).session.turns.flatMap((t) => t.atoms.map((a) => a.uuid))) : undefined;
  const subagents = new Map<string, SubagentView>();
  for (const link of await findSubagents(session)) {
    const sub = (await parseSubagent(link)).session;
    const atoms = sub.turns.flatMap((t) => t.atoms);
    const models = [...new Set(atoms.flatMap((a) => (a.type === 'assistant' && a.message?.model !== undefined && a.message.model !== '<synthetic>' ? [a.message.model] : [])))];
    subagents.set(link.tool_use_id, { session: sub, models, cost_usd: countAtomUsage(atoms).cost_usd });
  }
  const { branches, omitted } = await readBranches(session);
  const branchesFrom = new Map<string, Branch[]>();
  for (const branch of branches) if (branch.from !== null) branchesFrom.set(branch.from, [...(branchesFrom.get(branch.from) ?? []), branch]);
  const paths = new Map(session.files.map((f) => [f.fsid, f.path]));
  const ctx: RenderContext = { patches: await readPatches(session.files.map((f) => f.path)), subagents, branchesFrom, context, paths, diagnostics: [] };
  if (omitted > 0) ctx.diagnostics.push(diagnostic('HTML_TRUNCATED', `rewound branches: ${omitted} dead lines past the first 2000 not shown`, { file: session.files[0]?.path ?? '' }));
  const html = renderPage(session, ctx, { branches, omitted, compacted, live: live === true });
  return { html, session, diagnostics: [...parsed.diagnostics, ...ctx.diagnostics] };
}
