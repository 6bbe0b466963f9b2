import type { ExportSession } from '../export/read-export-session.ts';
import type { SessionRows } from '../rows/row-types.ts';
import { sessionRows } from '../rows/session-rows.ts';
import { ENTITIES } from './lake-columns.ts';
import { responsePlaces, responseRows } from '../rows/response-rows.ts';

/**
 * The lake rows of one exported session: `sessionRows` of the session (its diagnostics and subagent
 * links given) and of each linked subagent transcript (keyed `${rompUuid}/${its fsid}`: a subagent's
 * lines carry its parent's `sessionId`, so its own rompUuid would collide with the parent's), with
 * `usage_facts` replaced by `responseRows` over countUsage's responses (dead branches and unlinked
 * subagent files included, as `romp usage` counts them).
 * @param read the session as `readExportSession` read it
 * @returns the rows, by entity
 */
export function exportRows(read: ExportSession): SessionRows {
  const key = read.session.rompUuid;
  const subKeys = read.subagents.map((s) => `${key}/${s.session.files[0]?.fsid ?? s.tool_use_id}`);
  const all = [
    sessionRows(read.session, {
      diagnostics: read.diagnostics,
      subagents: read.subagents.map((s, i) => ({
        tool_use_id: s.tool_use_id,
        key: subKeys[i] as string,
        path: s.path,
        by: s.by,
      })),
    }),
    ...read.subagents.map((s, i) =>
      sessionRows({ ...s.session, rompUuid: subKeys[i] as string }, { parent: { key, tool_use_id: s.tool_use_id } }),
    ),
  ];
  const rows = Object.fromEntries(
    ENTITIES.map((e) => [e, all.flatMap((r) => r[e] as unknown[])]),
  ) as unknown as SessionRows;
  const places = responsePlaces(rows.atoms);
  const keyOfFile = new Map<string, string>(read.subagents.map((s, i) => [s.path, subKeys[i] as string]));
  rows.usage_facts = responseRows(read.responses, (file) => keyOfFile.get(file) ?? key, places);
  return rows;
}
