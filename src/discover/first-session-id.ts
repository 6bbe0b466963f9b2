import { headRecords } from './head-records.ts';

/**
 * The `sessionId` of a file's first line that carries one: the Claude session the file's lines were
 * written in (a subagent's file carries its parent's; a renamed copy keeps its original one; a leading
 * `summary` or `file-history-snapshot` line has none and is skipped). Reads at most the first 16 KiB.
 * @param path a transcript file
 * @returns the id, or undefined when no complete line there is JSON with a string `sessionId`
 */
export async function firstSessionId(path: string): Promise<string | undefined> {
  for (const record of await headRecords(path)) {
    const id = record['sessionId'];
    if (typeof id === 'string') return id;
  }
  return undefined;
}
