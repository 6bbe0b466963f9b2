import { existsSync } from 'node:fs';
import { rompHome } from '../romp-home/romp-home.ts';
import { watchSession } from '../live/watch-session.ts';
import { checkFiles, checkRegistered, refuseUnreadable, UserError, type CliIO } from './cli-io.ts';
import { formatDiagnostic } from '../diagnostics/diagnostic.ts';
import { resolveSession } from '../romp-home/registry.ts';
import { formatTurn } from './format-outline.ts';
import { cacheClock, formatCacheClock } from '../cache/cache-clock.ts';

/** Options of `romp watch`. */
export interface WatchCliOptions {
  session?: string;
  rompHome?: string;
  json?: boolean;
  poll?: boolean;
}

/**
 * `romp watch [FILES...] [--session ID]`: a live outline; each time turns change, their outline lines
 * are printed again, then the cache clock (`cacheClock`) (`--json`: one NDJSON line per change,
 * `{changed, turns, cache_clock}`). Runs until interrupted
 * or `signal` aborts. Diagnostics of each update (a file made unreadable: `FILE_UNREADABLE`) go to
 * stderr and the watch goes on; out of file-system watches it polls and says so once on stderr.
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
  const watchOptions = {
    rompHome: home,
    poll: options.poll === true,
    onFallback: (error: Error) => io.stderr.write(`romp: cannot watch with file-system events (${error.message}); polling the files instead\n`),
    ...(options.session === undefined ? {} : { rompUuid: options.session }),
    ...(signal === undefined ? {} : { signal }),
  };
  let first = true;
  for await (const { session, changed, diagnostics } of watchSession(files, watchOptions)) {
    // the files given were checked; a registered one that cannot be read is refused as by `romp show`;
    // later, a file made unreadable, deleted or replaced is reported and the watch goes on
    if (first) refuseUnreadable(diagnostics);
    for (const d of diagnostics) if (d.severity !== 'info') io.stderr.write(`${formatDiagnostic(d)}\n`);
    const turns = session.turns.map((turn, i) => ({ turn, n: i + 1 })).filter(({ turn }) => first || changed.includes(turn.id));
    if (!first && changed.length === 0) continue;
    first = false;
    const clock = cacheClock(session, Date.now());
    if (options.json === true) io.stdout.write(`${JSON.stringify({ changed, turns: turns.map(({ turn }) => turn), cache_clock: clock ?? null })}\n`);
    else for (const { turn, n } of turns) io.stdout.write(`${formatTurn(turn, n).join('\n')}\n`);
    if (options.json !== true && clock !== undefined) io.stdout.write(`${formatCacheClock(clock)}\n`);
  }
  return 0;
}
