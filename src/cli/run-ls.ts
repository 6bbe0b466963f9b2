import { listClaudeSessions, type ClaudeSessionInfo } from '../discover/list-claude-sessions.ts';
import { stat } from 'node:fs/promises';
import { reportSkipped, reportUnreadable, UserError, type CliIO } from './cli-io.ts';

/** Options of `romp ls`. */
export interface LsOptions {
  projects?: string;
  project?: string;
  json?: boolean;
}

/**
 * `romp ls`: Claude Code's sessions, newest first, one line each (last time, project, id, lines,
 * subagents, title or first prompt); `--json` prints the list. Entries left out (a FIFO, a link out of
 * the folder) are named on stderr; a transcript that cannot be read is listed, named on stderr, exit 2.
 * @param options projects folder, project filter, json
 * @param io where to write
 * @returns the exit code
 */
export async function runLs(options: LsOptions, io: CliIO): Promise<number> {
  if (options.projects !== undefined) {
    const info = await stat(options.projects).catch((error: Error) => {
      throw new UserError(`${options.projects}: cannot read: ${error.message}`);
    });
    if (!info.isDirectory()) throw new UserError(`${options.projects}: not a folder (give Claude Code's projects folder)`);
  }
  const list = await listClaudeSessions({
    ...(options.projects === undefined ? {} : { projectsDir: options.projects }),
    ...(options.project === undefined ? {} : { project: options.project }),
    onSkipped: (s) => reportSkipped(s, io),
  });
  if (options.json === true) io.stdout.write(`${JSON.stringify(list)}\n`);
  else {
    for (const s of list) io.stdout.write(`${line(s)}\n`);
    if (list.length === 0) io.stdout.write('no sessions\n');
  }
  return reportUnreadable(list.flatMap((s) => (s.error === undefined ? [] : [{ file: s.path, message: `cannot read: ${s.error}` }])), io);
}

function line(s: ClaudeSessionInfo): string {
  const when = Number.isNaN(s.last) ? '-'.padEnd(16) : new Date(s.last).toISOString().replace('T', ' ').slice(0, 16);
  const lines = `${s.linesEstimated ? '~' : ''}${s.lines} lines`;
  const agents = s.subagents.length > 0 ? `  +${s.subagents.length} subagents` : '';
  const label = (s.title || s.firstPrompt).replace(/\s+/g, ' ').slice(0, 70);
  return `${when}  ${s.project}  ${s.id}  ${lines}${agents}${s.orphan === true ? '  (orphan subagent)' : ''}  ${label}`;
}
