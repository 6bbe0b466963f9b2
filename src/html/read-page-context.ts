import { diagnostic } from '../diagnostics/diagnostic.ts';
import type { TimeFormat } from '../cli/format-time.ts';
import type { Session } from '../model/types.ts';
import { parseSession, type ParseOptions } from '../session/parse-session.ts';
import { countAtomUsage, countUsage } from '../usage/count-usage.ts';
import { withSubagents } from '../discover/with-subagents.ts';
import { findSubagents, parseSubagent } from '../discover/find-subagents.ts';
import { readBranches, type Branch } from './read-branches.ts';
import { readPatches } from './read-patches.ts';
import { subagentSession } from '../views/subagent-session.ts';
import type { RenderContext, SubagentView } from './render-context.ts';

/** What a page or an export shows beside the session, read back from its files. */
export interface PageContext {
  ctx: RenderContext;
  branches: Branch[];
  /** Dead lines not read (past `BRANCH_LINES_MAX`). */
  omitted: number;
  /** Whether the session holds a compaction. */
  compacted: boolean;
}

/**
 * Reads what the parse leaves out of a session, for `romp html` and `romp export`: Claude Code's edit
 * hunks (`readPatches`), the rewound branches (`readBranches`), the subagents (`findSubagents`, each
 * parsed, and the inline sidechains tied to a call, `Session.sidechains`; each with its models and cost,
 * `subagentView`), the usage of the session's files with its subagents' (`countUsage`, as
 * `romp usage session` counts it), and, with `contextView` on a compacted session, the atoms of the
 * `context` view (a second parse of the same files).
 * @param session the session (its `full` view, for a page)
 * @param files its transcript files
 * @param parse the options it was parsed with
 * @param contextView whether to read the `context` view's atoms
 * @param time how the page prints times (`timeFormat`)
 * @returns the context; a cut of the branches is an `HTML_TRUNCATED` diagnostic in `ctx.diagnostics`
 */
export async function readPageContext(
  session: Session,
  files: string[],
  parse: ParseOptions,
  contextView: boolean,
  time: TimeFormat,
): Promise<PageContext> {
  const compacted = session.turns.some((t) =>
    t.atoms.some((a) => a.type === 'system' && a.subtype === 'compact_boundary'),
  );
  const context =
    compacted && contextView
      ? new Set(
          (await parseSession(files, { ...parse, view: 'context' })).session.turns.flatMap((t) =>
            t.atoms.map((a) => a.uuid),
          ),
        )
      : undefined;
  const subagents = new Map<string, SubagentView>();
  for (const link of await findSubagents(session))
    subagents.set(link.tool_use_id, subagentView((await parseSubagent(link)).session));
  for (const { tool_use_id, atoms } of session.sidechains ?? [])
    if (tool_use_id !== null) subagents.set(tool_use_id, subagentView(subagentSession(session, atoms)));
  const { branches, omitted } = await readBranches(session);
  const branchesFrom = new Map<string, Branch[]>();
  for (const branch of branches)
    if (branch.from !== null) branchesFrom.set(branch.from, [...(branchesFrom.get(branch.from) ?? []), branch]);
  const paths = new Map(session.files.map((f) => [f.fsid, f.path]));
  const { total } = await countUsage(await withSubagents([...paths.values()], true));
  const ctx: RenderContext = {
    patches: await readPatches(session.files.map((f) => f.path)),
    subagents,
    branchesFrom,
    context,
    paths,
    time,
    withSubagents: {
      tokens:
        total.input_tokens + total.output_tokens + total.cache_creation_input_tokens + total.cache_read_input_tokens,
      cost_usd: total.cost_usd,
    },
    diagnostics: [],
  };
  if (omitted > 0)
    ctx.diagnostics.push(
      diagnostic('HTML_TRUNCATED', `rewound branches: ${omitted} dead lines past the first 2000 not shown`, {
        file: session.files[0]?.path ?? '',
      }),
    );
  return { ctx, branches, omitted, compacted };
}

/**
 * A subagent's session as shown under its call: the models its responses name, in order of first use, and its cost.
 * @param session the subagent's session
 * @returns the view
 */
export function subagentView(session: Session): SubagentView {
  const atoms = session.turns.flatMap((t) => t.atoms);
  const models = [
    ...new Set(
      atoms.flatMap((a) =>
        a.type === 'assistant' && a.message?.model !== undefined && a.message.model !== '<synthetic>'
          ? [a.message.model]
          : [],
      ),
    ),
  ];
  return { session, models, cost_usd: countAtomUsage(atoms).cost_usd };
}
