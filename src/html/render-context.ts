import type { TimeFormat } from '../cli/format-time.ts';
import type { Diagnostic } from '../diagnostics/diagnostic.ts';
import type { Session } from '../model/types.ts';
import type { Branch } from './read-branches.ts';
import type { Hunk } from './read-patches.ts';

/** A subagent's own session, shown under the `Task` / `Agent` call that spawned it. */
export interface SubagentView {
  session: Session;
  /** The models its responses name, in order of first use. */
  models: string[];
  /** USD at the built-in prices. */
  cost_usd: number;
}

/** Tokens (input, output, cache writes and reads) and USD at the built-in prices. */
export interface UsageTotal {
  tokens: number;
  cost_usd: number;
}

/** What the renderers read beside the session, and where they count what they cut. */
export interface RenderContext {
  /** Claude Code's own hunks, by the `tool_use_id` of the edit. */
  patches: ReadonlyMap<string, Hunk[]>;
  /** Subagents by the `tool_use_id` that spawned them. */
  subagents: ReadonlyMap<string, SubagentView>;
  /** Rewound branches by the uuid of the line they fork from. */
  branchesFrom: ReadonlyMap<string, Branch[]>;
  /** uuids of the atoms of the `context` view; atoms outside it are marked `pre-context`. `undefined`: all are in it.
   * */
  context: ReadonlySet<string> | undefined;
  /** Paths of the session's files by fsid, for the diagnostics of what was cut. */
  paths: ReadonlyMap<string, string>;
  /** How a time a person reads is printed (`timeFormat`: `--timezone`, else the machine's zone), its zone said once. */
  time: TimeFormat;
  /** The session's files and its subagents' transcripts as `romp usage session` counts them (`countUsage`). */
  withSubagents?: UsageTotal;
  /** `HTML_TRUNCATED` diagnostics, one per cut, pushed as the page is rendered. */
  diagnostics: Diagnostic[];
}
