import type { Diagnostic } from '../diagnostics/diagnostic.ts';
import type { Session } from '../model/types.ts';
import { parseSession } from '../session/parse-session.ts';
import { countUsage, type Response } from '../usage/count-usage.ts';
import { findSubagents, parseSubagent } from '../views/subagents.ts';

/** One session as the lake and trace exports read it. */
export interface ExportSession {
  session: Session;
  /** Its API responses, each once (`countUsage` over its file and every subagent transcript of it). */
  responses: Response[];
  /** The subagents linked to their `Task` / `Agent` calls, parsed. */
  subagents: Array<{ tool_use_id: string; path: string; by: 'meta' | 'prompt'; session: Session }>;
  /** Every file read: the session's, then its subagents'. */
  files: string[];
  diagnostics: Diagnostic[];
}

/** One export unit: a session's transcript and the subagent transcripts counted with it. */
export interface ExportUnit {
  file: string;
  /** Its subagent transcripts (`sessionSubagents`), each given to one unit only. */
  subagents: string[];
}

/**
 * Reads one session file for export: the Session (`full` view), its subagents (`findSubagents`, each
 * parsed), and its responses counted as `romp usage` counts them (`countUsage` over the file and the
 * unit's subagent transcripts).
 * @param unit a session's main transcript and its subagent transcripts
 * @returns the session, responses, subagents, files and diagnostics
 */
export async function readExportSession(unit: ExportUnit): Promise<ExportSession> {
  const { file } = unit;
  const { session, diagnostics } = await parseSession([file], { view: 'full' });
  const subagents: ExportSession['subagents'] = [];
  const own = new Set(unit.subagents);
  for (const link of await findSubagents(session)) {
    if (!own.has(link.path)) continue;
    const parsed = await parseSubagent(link);
    diagnostics.push(...parsed.diagnostics);
    subagents.push({ ...link, session: parsed.session });
  }
  const files = [file, ...unit.subagents];
  const usage = await countUsage(files, { onDiagnostic: () => {} });
  return { session, responses: usage.responses, subagents, files, diagnostics };
}
