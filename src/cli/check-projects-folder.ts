import { stat } from 'node:fs/promises';
import { UserError } from './cli-io.ts';
import { errorReason } from '../diagnostics/error-reason.ts';

/** What the folder is, for a person who named the wrong one (or has never run Claude Code here). */
const WHAT =
  "Claude Code's projects folder: $CLAUDE_CONFIG_DIR/projects, else ~/.claude/projects; --projects names another";

/**
 * Refuses a projects folder that is missing, not a folder or unreadable, with one wording in every command
 * that lists sessions (`ls`, `--latest`, a session id, `index`, `search`, `watch --latest`, `usage`, `serve`,
 * `resume-check --projects`, `export` of every session): a missing
 * folder is not an empty one (`romp ls` said "no sessions", exit 0, for a misspelt `CLAUDE_CONFIG_DIR`),
 * and to the index an unreadable folder would look empty, which removes every row.
 * @param dir the projects folder (`--projects`, else `defaultProjectsDir()`)
 * @throws UserError `DIR: no such folder (…)`, `DIR: not a folder (…)` or `DIR: cannot read: …` (exit 2)
 */
export async function checkProjectsFolder(dir: string): Promise<void> {
  const info = await stat(dir).catch((error: NodeJS.ErrnoException) => {
    throw new UserError(
      error.code === 'ENOENT' ? `${dir}: no such folder (${WHAT})` : `${dir}: cannot read: ${errorReason(error)}`,
    );
  });
  if (!info.isDirectory()) throw new UserError(`${dir}: not a folder (${WHAT})`);
}
