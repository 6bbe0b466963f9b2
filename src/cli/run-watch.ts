import { existsSync } from 'node:fs';
import { rompHome } from '../romp-home/romp-home.ts';
import { watchSession } from '../live/watch-session.ts';
import { checkFiles, checkRegistered, UserError, type CliIO } from './cli-io.ts';
import { resolveSession } from '../romp-home/registry.ts';
import { formatTurn } from './format-outline.ts';

/** Options of `romp watch`. */
export interface WatchCliOptions {
  session?: string;
  rompHome?: string;
  json?: boolean;
  poll?: boolean;
}

/**
 * `romp watch [FILES...] [--session ID]`: a live outline; each time turns change, their outline lines
 * are printed again (`--json`: one NDJSON line per change, `{changed, turns}`). Runs until interrupted
 * or `signal` aborts.
 * @param files transcript paths
 * @param options session, romp home, json, poll
 * @param io where to write
 * @param signal stops the watch
 * @returns the exit code
 */
export async function runWatch(files: string[], options: WatchCliOptions, io: CliIO, signal?: AbortSignal): Promise<number> {
  if (files.length === 0 && options.session === undefined) throw new UserError('watch needs transcript files or --session <rompUuid>');
  for (const file of files) if (!existsSync(file)) throw new UserError(`${file}: no such file (watch follows files that exist; start it once Claude Code has created the transcript)`);
  await checkFiles(files);
  const home = rompHome(options.rompHome);
  if (options.session !== undefined) checkRegistered(options.session, home, (await resolveSession(home, options.session))?.files ?? []);
  const watchOptions = { rompHome: home, poll: options.poll === true, ...(options.session === undefined ? {} : { rompUuid: options.session }), ...(signal === undefined ? {} : { signal }) };
  for await (const { session, changed } of watchSession(files, watchOptions)) {
    const turns = session.turns.map((turn, i) => ({ turn, n: i + 1 })).filter(({ turn }) => changed.includes(turn.id) || changed.length === 0);
    if (options.json === true) io.stdout.write(`${JSON.stringify({ changed, turns: turns.map(({ turn }) => turn) })}\n`);
    else for (const { turn, n } of turns) io.stdout.write(`${formatTurn(turn, n).join('\n')}\n`);
  }
  return 0;
}
