import { defaultProjectsDir } from '../discover/list-claude-sessions.ts';
import { startViewer } from '../serve/start-viewer.ts';
import { checkProjectsFolder } from './check-projects-folder.ts';
import type { CliIO } from './cli-io.ts';
import { timeFormat } from './format-time.ts';

/** Options of `romp serve`. */
export interface ServeCliOptions {
  port?: number;
  host?: string;
  projects?: string;
  /** The IANA zone the pages print times in (default: the machine's). */
  timezone?: string;
  /** Print the address as one JSON line (`{"url","host","port"}`) for a program that starts the viewer. */
  json?: boolean;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

/**
 * `romp serve [--port N] [--host H] [--projects DIR]`: the local viewer (`startViewer`) until `signal`
 * aborts (or the process is stopped). Prints the URL (with `--json`: one line `{"url","host","port"}`, the
 * port the system gave for `--port 0`) once it listens; a host other than the loopback gets a warning on
 * stderr (every session would be readable from the network).
 * @param options port (default: a free one), host (default 127.0.0.1), projects folder, timezone, json
 * @param io where to write
 * @param signal stops the server
 * @returns the exit code
 */
export async function runServe(options: ServeCliOptions, io: CliIO, signal?: AbortSignal): Promise<number> {
  const host = options.host ?? '127.0.0.1';
  if (!LOOPBACK.has(host))
    io.stderr.write(`romp serve: warning: listening on ${host}: anyone who can reach it can read every session\n`);
  const projectsDir = options.projects ?? defaultProjectsDir();
  await checkProjectsFolder(projectsDir);
  const viewer = await startViewer({ host, port: options.port ?? 0, time: timeFormat(options.timezone), projectsDir });
  io.stdout.write(
    options.json === true
      ? `${JSON.stringify({ url: viewer.url, host, port: Number(new URL(viewer.url).port) })}\n`
      : `romp serve: ${viewer.url}\n`,
  );
  await new Promise<void>((resolve) => {
    if (signal?.aborted === true) resolve();
    signal?.addEventListener('abort', () => resolve(), { once: true });
  });
  await viewer.close();
  return 0;
}
