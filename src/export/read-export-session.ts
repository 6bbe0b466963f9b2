import type { Diagnostic } from '../diagnostics/diagnostic.ts';
import { sessionSubagents } from '../discover/list-claude-sessions.ts';
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

/**
 * Reads one session file for export: the Session (`full` view), its subagents (`findSubagents`, each
 * parsed), and its responses counted as `romp usage FILE` counts them (`countUsage` over the file and
 * `sessionSubagents(file)`).
 * @param file a session's main transcript
 * @returns the session, responses, subagents, files and diagnostics
 */
export async function readExportSession(file: string): Promise<ExportSession> {
  const { session, diagnostics } = await parseSession([file], { view: 'full' });
  const subagents: ExportSession['subagents'] = [];
  for (const link of await findSubagents(session)) {
    const parsed = await parseSubagent(link);
    diagnostics.push(...parsed.diagnostics);
    subagents.push({ ...link, session: parsed.session });
  }
  const files = [file, ...(await sessionSubagents(file))];
  const usage = await countUsage(files, { onDiagnostic: () => {} });
  return { session, responses: usage.responses, subagents, files, diagnostics };
}
