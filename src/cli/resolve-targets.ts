import { lstat, readdir, rm, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { defaultProjectsDir, listClaudeSessions, type ClaudeSessionInfo } from '../discover/list-claude-sessions.ts';
import { matchesProjectKey, projectKey } from '../discover/project-key.ts';
import { UserError, type CliIO } from './cli-io.ts';
import { checkProjectsFolder } from './check-projects-folder.ts';
import { timeFormat, type TimeFormat } from './format-time.ts';
import { stdinCopyPath } from './stdin-copy.ts';
import { errorReason } from '../diagnostics/error-reason.ts';
import { fitWidth, outputWidth, textWidth, wrapLines } from './fit-width.ts';
import { safeText } from './safe-text.ts';

/** How a command names the sessions it reads, beside transcript paths. */
export interface TargetOptions {
  /** The newest session (of `--project` when given). */
  latest?: boolean;
  /** A project: its real path (`.` = the current directory) or its folder name under the projects folder. */
  project?: string;
  /** Claude Code's projects folder (default `$CLAUDE_CONFIG_DIR/projects`, else `~/.claude/projects`). */
  projects?: string;
  /** The IANA zone of the times an ambiguous prefix's candidates are listed with (default: the machine's). */
  timezone?: string;
}

/** The transcript files a command's arguments name, and how to clean up after reading them. */
export interface Targets {
  files: string[];
  /** Removes the temporary copy of standard input, if `-` was given. */
  cleanup(): Promise<void>;
}

const ID_LIKE = /^[0-9A-Za-z][0-9A-Za-z_-]*$/;

/**
 * Turns a command's arguments into transcript files. Each argument is, in this order:
 * - `-`: standard input, copied to a temporary `stdin.jsonl` (removed by `cleanup`);
 * - an existing path (a link too, even one that leads nowhere): kept as it is (the command checks it is a readable
 *   file, and names a broken link's error);
 * - a Claude session id or a unique prefix of one (`03eb5929`), looked up in the projects folder as
 *   `romp ls` lists it (subagent files excluded, but for an orphan one, whose session is gone, as `romp ls` lists
 *   it); an ambiguous prefix is an error listing the candidates.
 *
 * Without arguments, `--latest` gives the newest session and `--project DIR` the project's sessions:
 * with `one`, the newest of them; with `many`, all of them. Neither gives no files: the command decides.
 *
 * @param args the command's positional arguments
 * @param options `--latest`, `--project`, `--projects`
 * @param mode whether the command reads one session (`one`) or many (`many`)
 * @param io standard input, for `-`
 * @param cwd what `--project .` means (default: the process's working directory)
 * @returns the files, in argument order
 * @throws UserError when an argument names nothing, or several sessions
 */
export async function resolveTargets(
  args: string[],
  options: TargetOptions,
  mode: 'one' | 'many',
  io: CliIO,
  cwd: string = process.cwd(),
): Promise<Targets> {
  const temporary: string[] = [];
  const cleanup = async (): Promise<void> => {
    for (const dir of temporary) await rm(dir, { recursive: true, force: true });
  };
  const projectsDir = options.projects ?? defaultProjectsDir();
  let listed: ClaudeSessionInfo[] | undefined;
  const sessions = async (): Promise<ClaudeSessionInfo[]> => {
    await checkProjectsFolder(projectsDir);
    const folder = options.project === undefined ? undefined : await projectFolder(projectsDir, options.project, cwd);
    listed ??= await listClaudeSessions({ projectsDir, ...(folder === undefined ? {} : { project: folder }) });
    return listed;
  };
  const files: string[] = [];
  try {
    for (const arg of args) {
      if (arg === '-') {
        const { dir, path } = await stdinCopyPath();
        temporary.push(dir);
        await writeFile(path, await readAll(io));
        files.push(path);
      } else if ((await lstat(arg).catch(() => undefined)) !== undefined || !ID_LIKE.test(arg)) {
        files.push(arg);
      } else {
        files.push(pick(arg, await sessions(), projectsDir, timeFormat(options.timezone), outputWidth(io.stderr)).path);
      }
    }
    if (args.length === 0 && (options.latest === true || options.project !== undefined)) {
      // a subagent file whose session is gone is listed, and opens by its id, but is no project's session
      const all = (await sessions()).filter((s) => s.orphan !== true);
      if (all.length === 0)
        throw new UserError(
          `no sessions under ${projectsDir}${options.project === undefined ? '' : ` for project ${options.project}`}`,
        );
      files.push(...(mode === 'many' && options.latest !== true ? all : all.slice(0, 1)).map((s) => s.path));
    }
  } catch (error) {
    await cleanup();
    throw error;
  }
  return { files, cleanup };
}

/**
 * The one session whose id starts with `prefix`; else an error listing the candidates (10 at most), times in the CLI's
 * convention, fitted to stderr's width: the heading wrapped between words, each candidate's line cut one column short
 * of it after its id, which is never cut (it is what to type), its project, time and title made safe (`safeText`).
 * @param prefix what was given
 * @param sessions the sessions listed
 * @param projectsDir where they were listed, for the error
 * @param time the time printer
 * @param columns stderr's width (`outputWidth`); undefined: lines whole
 * @returns the session
 * @throws UserError for no session or more than one
 */
function pick(
  prefix: string,
  sessions: ClaudeSessionInfo[],
  projectsDir: string,
  time: TimeFormat,
  columns: number | undefined,
): ClaudeSessionInfo {
  const exact = sessions.filter((s) => s.id === prefix);
  const found = exact.length > 0 ? exact : sessions.filter((s) => s.id.startsWith(prefix));
  if (found.length === 1 && found[0] !== undefined) return found[0];
  if (found.length === 0)
    throw new UserError(`${prefix}: no such file, and no session id starting with it under ${projectsDir}`);
  const shown = found.slice(0, 10).map((s) => {
    const id = `  ${s.id}`;
    const title = (s.title || s.firstPrompt).replace(/\s+/g, ' ').trim().slice(0, 60);
    const rest = `  ${safeText(s.cwd || s.project)}  ${time.format(s.last)}  ${safeText(title)}`.trimEnd();
    const room = columns === undefined ? Infinity : columns - 1 - textWidth(id);
    return room < 4 ? id : `${id}${fitWidth(rest, room)}`;
  });
  const more = found.length > 10 ? [`  … and ${found.length - 10} more`] : [];
  throw new UserError(
    [
      // after the `romp: ` the CLI puts before it
      ...wrapLines(
        [`romp: ${prefix} matches ${found.length} sessions (last activity in ${time.zone}); give more of the id:`],
        columns,
      ),
      ...shown,
      ...more,
    ]
      .join('\n')
      .slice('romp: '.length),
  );
}

/**
 * The folder under the projects folder that `--project` names: its folder name, or a real path's key
 * (`projectKey`; `.` = `cwd`).
 * @param projectsDir Claude Code's projects folder
 * @param project what `--project` was given
 * @param cwd what a relative path is resolved against
 * @returns the folder's name
 * @throws UserError when the projects folder cannot be read or holds no folder for the project
 */
export async function projectFolder(projectsDir: string, project: string, cwd: string): Promise<string> {
  const folders = await readdir(projectsDir).catch((error: Error) => {
    throw new UserError(`${projectsDir}: cannot read: ${errorReason(error)}`);
  });
  if (folders.includes(project)) return project;
  const path = resolve(cwd, project);
  const folder = folders.find((f) => matchesProjectKey(f, path));
  if (folder === undefined)
    throw new UserError(`no sessions for project ${path} under ${projectsDir} (no folder ${projectKey(path)})`);
  return folder;
}

async function readAll(io: CliIO): Promise<Buffer> {
  if (io.stdin === undefined) throw new UserError('-: no standard input');
  const chunks: Buffer[] = [];
  for await (const chunk of io.stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk));
  return Buffer.concat(chunks);
}
