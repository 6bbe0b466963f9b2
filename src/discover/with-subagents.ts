import { sessionSubagents } from './list-claude-sessions.ts';

/**
 * The files, each followed by its session's subagent transcripts when asked (each path once): what
 * `romp usage session`, `romp cache` and a page's with-subagents total count.
 * @param files transcript paths
 * @param subagents whether to add the subagents' files (`sessionSubagents`)
 * @returns the paths, in that order
 */
export async function withSubagents(files: string[], subagents: boolean): Promise<string[]> {
  if (!subagents) return files;
  const paths = new Set<string>();
  for (const file of files) {
    paths.add(file);
    for (const agent of await sessionSubagents(file)) paths.add(agent);
  }
  return [...paths];
}
