import { watch } from 'chokidar';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { registryFolder } from '../romp-home/registry.ts';
import type { ParseOptions } from '../session/parse-session.ts';
import { SessionWatcher, type WatchUpdate } from './session-watcher.ts';

/** Options of `watchSession`. */
export interface WatchSessionOptions extends ParseOptions {
  /** Bursts of file events closer than this (ms) make one update. Default 50. */
  debounceMs?: number;
  /** Poll the files instead of relying on file-system events (network drives). Default false. */
  poll?: boolean;
  /** Stops the watch; the iterable then ends. */
  signal?: AbortSignal;
  /**
   * Called once when file-system events cannot be had (inotify watches or instances used up: `ENOSPC`,
   * `EMFILE`) and the watch goes on by polling.
   */
  onFallback?: (error: NodeJS.ErrnoException) => void;
  /** Makes the folder watcher (default chokidar's `watch`); tests inject failures here. */
  watchFactory?: WatchFactory;
}

/** What `watchSession` needs of a folder watcher (chokidar's `FSWatcher` has it). */
export interface FolderWatcher {
  on(event: 'all' | 'error', listener: (...args: unknown[]) => void): unknown;
  once(event: 'ready', listener: () => void): unknown;
  add(paths: string[]): unknown;
  close(): Promise<void>;
}

/** Starts watching folders (`depth` 3), with events or, when `poll`, by polling every 100 ms. */
export type WatchFactory = (folders: string[], poll: boolean) => FolderWatcher;

const chokidarFactory: WatchFactory = (folders, poll) =>
  watch(folders, { ignoreInitial: true, usePolling: poll, interval: 100, depth: 3 }) as unknown as FolderWatcher;

/** Error codes of a system out of file watches: inotify instances (`EMFILE`) or watches (`ENOSPC`). */
const OUT_OF_WATCHES = new Set(['EMFILE', 'ENOSPC']);

/** While polling, how often the files are read again without an event (ms). */
const POLL_REREAD_MS = 1000;

/**
 * Follows a session's transcripts as Claude Code writes them: yields the first state, then every
 * update that changed a turn (see `SessionWatcher`). File events come from chokidar (polling on
 * request); a burst of appends is coalesced into one update. The folders of the files are watched, so
 * new subagent files are seen too, and, with a romp home, its `states/` folder, so idle spans show as
 * they open and close, and with `rompUuid` its registry folder, so a resume file registered mid-watch
 * is read at once, wherever it lies. Updates that only brought diagnostics (a file made unreadable,
 * deleted or replaced: `FILE_UNREADABLE`, the watch goes on) are yielded too.
 *
 * When file-system events run out (`ENOSPC`, `EMFILE`: the inotify limits), the watch polls instead
 * and calls `onFallback` once; when polling fails too, the iterable throws `cannot watch …` with the
 * error's code. While polling, the files are also read again every second without an event: a poller
 * takes its first look after it says it is ready, and an append before that look is no change to it.
 *
 * ```ts
 * for await (const { session, changed } of watchSession(['~/.claude/projects/p/<id>.jsonl'], { signal })) {
 *   for (const id of changed) render(session.turns.find((t) => t.id === id));
 * }
 * ```
 *
 * @param files transcript paths (or none, with `rompUuid` and `rompHome`)
 * @param options as for `parseSession`, plus `debounceMs`, `poll`, `signal`
 * @returns the updates
 */
export async function* watchSession(files: string[], options: WatchSessionOptions = {}): AsyncIterable<WatchUpdate> {
  const watcher = new SessionWatcher(files, options);
  const first = await watcher.update();
  // with a romp home, its state logs too: an idle span that opens or closes is a change. Only once the
  // folder exists: chokidar given a missing path reports ready before it watches the others
  const states = options.rompHome === undefined ? undefined : join(options.rompHome, 'states');
  const registry =
    options.rompHome !== undefined && options.rompUuid !== undefined ? registryFolder(options.rompHome) : undefined;
  const folders = (): string[] => [
    ...new Set([
      ...watcher.files.map((f) => dirname(f)),
      ...[states, registry].filter((f): f is string => f !== undefined && existsSync(f)),
    ]),
  ];
  const factory = options.watchFactory ?? chokidarFactory;
  let poll = options.poll === true;
  let failure: NodeJS.ErrnoException | undefined;
  let wake: (() => void) | undefined;
  let dirty = false;
  const touch = (): void => {
    dirty = true;
    wake?.();
  };
  let settled: (() => void) | undefined;
  const start = (): FolderWatcher => {
    const started = factory(folders(), poll);
    started.on('all', touch);
    // an error is about some entry of a watched folder (a symlink loop, a file gone): the next update
    // reads the session's own files and reports what concerns them; out of watches, poll instead
    started.on('error', (error: unknown) => {
      const code = (error as NodeJS.ErrnoException).code;
      if (started === fsWatcher && code !== undefined && OUT_OF_WATCHES.has(code)) {
        if (poll) failure = error as NodeJS.ErrnoException;
        else {
          poll = true;
          options.onFallback?.(error as NodeJS.ErrnoException);
          void started.close();
          fsWatcher = start();
        }
        settled?.();
      }
      touch();
    });
    return started;
  };
  // watching starts before the first state is handed out, so no append after it is missed
  let fsWatcher = start();
  await new Promise<void>((resolve) => {
    settled = resolve;
    fsWatcher.once('ready', () => resolve());
  });
  const watching = (): void => {
    if (failure !== undefined)
      throw Object.assign(new Error(`cannot watch ${folders().join(', ')}: ${failure.message}`), {
        code: failure.code,
      });
  };
  const stop = new Promise<void>((resolve) =>
    options.signal?.addEventListener('abort', () => resolve(), { once: true }),
  );
  const aborted = (): boolean => options.signal?.aborted === true;
  try {
    watching();
    yield first;
    while (!aborted()) {
      watching();
      if (!dirty) {
        const events = new Promise<void>((resolve) => (wake = resolve));
        const reread = poll ? new Promise<void>((resolve) => setTimeout(resolve, POLL_REREAD_MS).unref()) : events;
        await Promise.race([events, reread, stop]);
      }
      if (aborted()) break;
      watching();
      await new Promise((resolve) => setTimeout(resolve, options.debounceMs ?? 50));
      dirty = false;
      const before = folders();
      const update = await watcher.update();
      const added = folders().filter((f) => !before.includes(f));
      if (added.length > 0) fsWatcher.add(added);
      if (update.changed.length > 0 || update.newSubagents.length > 0 || update.diagnostics.length > 0) yield update;
    }
  } finally {
    await fsWatcher.close();
  }
}
