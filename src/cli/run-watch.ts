import { watch, type FSWatcher } from 'chokidar';
import { existsSync, lstatSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { rompHomeFolder } from './romp-home-folder.ts';
import { watchSession } from '../live/watch-session.ts';
import { checkRegistered, refuseUnreadable, UserError, type CliIO } from './cli-io.ts';
import { checkProjectsFolder } from './check-projects-folder.ts';
import { checkTranscripts } from './check-transcripts.ts';
import { formatDiagnostic } from '../diagnostics/diagnostic.ts';
import { resolveSession } from '../romp-home/registry.ts';
import { CACHE_CLOCK_TIMES, cacheClock, formatCacheClock } from '../cache/cache-clock.ts';
import { defaultProjectsDir } from '../discover/list-claude-sessions.ts';
import { projectKey } from '../discover/project-key.ts';
import { refuseUnrelated } from './refuse-unrelated.ts';
import { projectFolder, resolveTargets, type TargetOptions } from './resolve-targets.ts';
import { timeFormat } from './format-time.ts';
import { isoTime, withIsoTimes } from './iso-time.ts';
import { WatchScreen } from './watch-screen.ts';

/** Options of `romp watch`. */
export interface WatchCliOptions extends TargetOptions {
  session?: string;
  rompHome?: string;
  json?: boolean;
  poll?: boolean;
}

/**
 * `romp watch [SESSION...] [--latest] [--project DIR] [--session ID]`: a live outline. On a terminal, the
 * turn list redrawn in place at each change, a line per turn, rewinds and compactions marked, then the
 * cache clock (`WatchScreen`); elsewhere the outline lines of the turns that change, appended, then the
 * clock. `--json`: one NDJSON line per change, `{changed, removed, turns, cache_clock}`: the ids of the
 * turns new or changed, with those turns (the model's `Turn`, epoch ms, as `romp json`), the ids of the
 * turns gone (a rewind; or, when `--latest` moves on to a new session, the previous session's turns) and
 * the clock (its times ISO strings with the zone's offset: `isoTime`).
 *
 * The session is named as `romp show` names it (`resolveTargets`: paths, an id or unique prefix), or
 * with `--session` from romp's registry. A path that does not exist yet (in a folder that does) is
 * waited for, said once on stderr. `--latest` (of `--project` when given) follows the newest session
 * and, when Claude Code starts a new one (a new `<id>.jsonl` in the projects folder), moves on to it,
 * saying so; with no session yet, it waits for the first. Runs until interrupted or `signal` aborts.
 * Diagnostics of each update (a file made unreadable: `FILE_UNREADABLE`) go to stderr and the watch goes
 * on; out of file-system watches it polls and says so once on stderr.
 * @param args transcript paths, or a session id / unique prefix
 * @param options session, romp home, json, poll, latest, project, projects, timezone
 * @param io where to write
 * @param signal stops the watch
 * @returns the exit code
 */
export async function runWatch(
  args: string[],
  options: WatchCliOptions,
  io: CliIO,
  signal?: AbortSignal,
): Promise<number> {
  const following = args.length === 0 && (options.latest === true || options.project !== undefined);
  if (args.length === 0 && options.session === undefined && !following)
    throw new UserError('watch needs transcript files, a session id, --latest, --project or --session <rompUuid>');
  const home = rompHomeFolder(options.rompHome);
  if (options.session !== undefined)
    checkRegistered(options.session, home, (await resolveSession(home, options.session))?.files ?? []);
  const screen = new WatchScreen(io.stdout, timeFormat(options.timezone));
  const stopResize = io.stdout.onResize?.(() => screen.resize());
  try {
    return await watchOn(screen, following, args, options, io, home, signal);
  } finally {
    stopResize?.();
  }
}

/** `runWatch` once its screen is set up (and told of resizes). */
async function watchOn(
  screen: WatchScreen,
  following: boolean,
  args: string[],
  options: WatchCliOptions,
  io: CliIO,
  home: string,
  signal: AbortSignal | undefined,
): Promise<number> {
  const emit = emitter(options, io, screen);
  if (following) {
    await followLatest(options, io, screen, emit, signal);
    return 0;
  }
  // a link counts as there (a symlink loop is then refused as unreadable, not waited for)
  const missing = args.filter((arg) => !linked(arg) && (arg.includes('/') || arg.endsWith('.jsonl')));
  for (const file of missing) {
    if (!existsSync(dirname(file)))
      throw new UserError(`${file}: no such file, and no folder ${dirname(file)} to wait in`);
  }
  if (missing.length > 0) {
    io.stderr.write(`romp: waiting for ${missing.join(', ')} to be created\n`);
    if (!(await appeared(missing, options.poll === true, signal))) return 0;
  }
  const { files } = await resolveTargets(args, options, 'one', io);
  await checkTranscripts(files);
  screen.follow(files[0] ?? `session ${options.session ?? ''}`);
  await watchFiles(files, { ...options, rompHome: home }, io, emit, signal);
  return 0;
}

/** Prints one update: a JSON line, or through the screen. */
type Emit = (
  update: { session: Parameters<WatchScreen['show']>[0]['session']; changed: string[]; removed: string[] },
  first: boolean,
) => void;

function emitter(options: WatchCliOptions, io: CliIO, screen: WatchScreen): Emit {
  const iso = isoTime(options.timezone);
  return ({ session, changed, removed }, first) => {
    const clock = cacheClock(session, Date.now());
    if (options.json === true) {
      // a consumer folds each line: drop the `removed` ids, put each of `turns` in place of the turn of its id
      const gone = new Set(removed);
      const ids = new Set(changed);
      const json = {
        changed: changed.filter((id) => !gone.has(id)),
        removed,
        turns: session.turns.filter((t) => first || ids.has(t.id)),
        cache_clock: clock === undefined ? null : withIsoTimes(clock, CACHE_CLOCK_TIMES, iso),
      };
      io.stdout.write(`${JSON.stringify(json)}\n`);
    } else {
      screen.show(
        { session, changed, removed, ...(clock === undefined ? {} : { clock: formatCacheClock(clock) }) },
        first,
      );
    }
  };
}

/**
 * Follows files (or a registered session) until `signal` aborts, emitting each change.
 * @param files the transcripts (none with `options.session`)
 * @param options session, romp home, poll
 * @param io where diagnostics go
 * @param emit how a change is printed
 * @param signal stops it
 * @param removedFirst ids the first update also removes (the turns of the session followed before)
 * @returns the ids of the turns of the last state
 */
async function watchFiles(
  files: string[],
  options: WatchCliOptions & { rompHome: string },
  io: CliIO,
  emit: Emit,
  signal?: AbortSignal,
  removedFirst: string[] = [],
): Promise<string[]> {
  const watchOptions = {
    rompHome: options.rompHome,
    poll: options.poll === true,
    onFallback: (error: Error) =>
      io.stderr.write(`romp: cannot watch with file-system events (${error.message}); polling the files instead\n`),
    ...(options.session === undefined ? {} : { rompUuid: options.session }),
    ...(signal === undefined ? {} : { signal }),
  };
  let first = true;
  let ids: string[] = [];
  for await (const { session, changed, removed, diagnostics } of watchSession(files, watchOptions)) {
    // the files given were checked; a registered one that cannot be read is refused as by `romp show`;
    // later, a file made unreadable, deleted or replaced is reported and the watch goes on
    if (first) {
      refuseUnreadable(diagnostics);
      if (options.session === undefined) await refuseUnrelated({ session }); // the registry says its files are one
    }
    for (const d of diagnostics) if (d.severity !== 'info') io.stderr.write(`${formatDiagnostic(d)}\n`);
    if (!first && changed.length === 0) continue;
    emit(
      { session, changed: first ? [...removedFirst, ...changed] : changed, removed: first ? removedFirst : removed },
      first,
    );
    first = false;
    ids = session.turns.map((t) => t.id);
  }
  return ids;
}

/**
 * `--latest`: watches the newest session of the projects folder (of `--project`'s folder) and, when a
 * new transcript `<folder>/<id>.jsonl` appears, stops it and watches the new one. One folder watcher
 * (chokidar, depth 1) over the projects folder sees the new files, a project's folder created later too.
 */
async function followLatest(
  options: WatchCliOptions,
  io: CliIO,
  screen: WatchScreen,
  emit: Emit,
  signal?: AbortSignal,
): Promise<void> {
  const projectsDir = options.projects ?? defaultProjectsDir();
  await checkProjectsFolder(projectsDir);
  const folder =
    options.project === undefined
      ? undefined
      : await projectFolder(projectsDir, options.project, process.cwd()).catch(() =>
          projectKey(resolve(options.project as string)),
        );
  const home = rompHomeFolder(options.rompHome);
  let next: string | undefined;
  let current: string | undefined;
  let wake: (() => void) | undefined;
  let inner = new AbortController();
  const watcher = quiet(
    watch(projectsDir, {
      ignoreInitial: true,
      depth: 1,
      usePolling: options.poll === true,
      interval: 100,
    }),
  );
  watcher.on('add', (path: string) => {
    const parent = dirname(path);
    if (
      path === current ||
      !path.endsWith('.jsonl') ||
      dirname(parent) !== projectsDir ||
      (folder !== undefined && basename(parent) !== folder)
    )
      return;
    next = path;
    inner.abort();
    wake?.();
  });
  await new Promise<void>((ready) => watcher.once('ready', () => ready()));
  const stop = (): void => {
    inner.abort();
    wake?.();
  };
  signal?.addEventListener('abort', stop, { once: true });
  try {
    const latest = await resolveTargets([], { ...options, latest: true }, 'one', io)
      .then((t) => t.files[0])
      .catch((error: unknown) => {
        if (error instanceof UserError && error.message.startsWith('no sessions')) return undefined;
        throw error;
      });
    let file = next ?? latest;
    if (file === undefined) {
      io.stderr.write(
        `romp: waiting for a session under ${folder === undefined ? projectsDir : join(projectsDir, folder)}\n`,
      );
      await new Promise<void>((woken) => {
        wake = woken;
        if (next !== undefined || signal?.aborted === true) woken();
      });
      file = next;
    }
    let ids: string[] = [];
    let note: string | undefined;
    while (file !== undefined && signal?.aborted !== true) {
      next = undefined;
      current = file;
      inner = new AbortController();
      screen.follow(file, note);
      ids = await watchFiles([file], { ...options, rompHome: home }, io, emit, inner.signal, ids);
      if (next === undefined) break;
      file = next;
      // --json keeps stdout to its NDJSON lines: the note goes to stderr
      const moved = `following new session ${basename(file, '.jsonl')}`;
      if (options.json === true) io.stderr.write(`romp: ${moved}\n`);
      else note = moved;
    }
  } finally {
    signal?.removeEventListener('abort', stop);
    await watcher.close();
  }
}

/**
 * Waits until every path exists (a chokidar watcher over their folders), or `signal` aborts.
 * @returns whether they all appeared
 */
async function appeared(paths: string[], poll: boolean, signal?: AbortSignal): Promise<boolean> {
  const watcher = quiet(
    watch([...new Set(paths.map((p) => dirname(p)))], { depth: 0, usePolling: poll, interval: 100 }),
  );
  try {
    return await new Promise<boolean>((done) => {
      const check = (): void => {
        if (paths.every((p) => existsSync(p))) done(true);
      };
      watcher.on('all', check);
      watcher.once('ready', check);
      signal?.addEventListener('abort', () => done(false), { once: true });
      if (signal?.aborted === true) done(false);
    });
  } finally {
    await watcher.close();
  }
}

/** Whether a path is there, as a file or as a link (even a dangling or looping one, which `existsSync` says is not). */
function linked(path: string): boolean {
  return lstatSync(path, { throwIfNoEntry: false }) !== undefined;
}

/**
 * A chokidar watcher that does not crash on an entry it cannot stat (a symlink loop beside the watched files:
 * ELOOP, a file removed under it): chokidar goes on watching the rest, and what romp reads it checks itself.
 * @param watcher the watcher
 * @returns the same watcher
 */
function quiet(watcher: FSWatcher): FSWatcher {
  watcher.on('error', () => {});
  return watcher;
}
