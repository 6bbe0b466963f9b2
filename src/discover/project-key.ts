/** Claude Code cuts a project key to this many characters (and adds a hash) when the cwd is longer. */
const KEY_LIMIT = 200;

/**
 * The name of a project's folder under Claude Code's projects folder: the cwd with every character that
 * is not an ASCII letter or digit replaced by `-` (`/work/my app` → `-work-my-app`). A key longer than
 * 200 characters is cut to 200 and Claude Code adds `-` and a hash of the whole path; only the cut part
 * is returned then, for {@link matchesProjectKey}. Source: transcript-format.md §2 (Claude Code 2.1.x).
 * @param cwd an absolute path
 * @returns the key (at most 200 characters)
 */
export function projectKey(cwd: string): string {
  return cwd.replace(/[^a-zA-Z0-9]/g, '-').slice(0, KEY_LIMIT);
}

/**
 * Whether a folder name under the projects folder is the project of `cwd`: equal to its key, or, for a
 * cwd whose key is cut, the cut key followed by `-` and the hash.
 * @param folder a folder name under the projects folder
 * @param cwd an absolute path
 * @returns true when the folder holds that project's sessions
 */
export function matchesProjectKey(folder: string, cwd: string): boolean {
  const key = projectKey(cwd);
  const full = cwd.replace(/[^a-zA-Z0-9]/g, '-');
  return full.length <= KEY_LIMIT ? folder === key : folder.startsWith(`${key}-`);
}
