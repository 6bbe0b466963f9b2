import { watch } from 'chokidar';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
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
}

/**
 * Follows a session's transcripts as Claude Code writes them: yields the first state, then every
 * update that changed a turn (see `SessionWatcher`). File events come from chokidar (polling on
 * request); a burst of appends is coalesced into one update. The folders of the files are watched, so
 * resume files registered later and new subagent files are seen too, and, with a romp home, its
 * `states/` folder, so idle spans show as they open and close.
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
  const folders = (): string[] => [...new Set([...watcher.files.map((f) => dirname(f)), ...(states !== undefined && existsSync(states) ? [states] : [])])];
  // watching starts before the first state is handed out, so no append after it is missed
  const fsWatcher = watch(folders(), { ignoreInitial: true, usePolling: options.poll === true, interval: 100, depth: 3 });
  let wake: (() => void) | undefined;
  let dirty = false;
  fsWatcher.on('all', () => {
    dirty = true;
    wake?.();
  });
  // an error is about some entry of a watched folder (a symlink loop, a file gone): the next update
  // reads the session's own files and reports what concerns them
  fsWatcher.on('error', () => {
    dirty = true;
    wake?.();
  });
  await new Promise<void>((resolve) => fsWatcher.once('ready', () => resolve()));
  const stop = new Promise<void>((resolve) => options.signal?.addEventListener('abort', () => resolve(), { once: true }));
  const aborted = (): boolean => options.signal?.aborted === true;
  try {
    yield first;
    while (!aborted()) {
      if (!dirty) await Promise.race([new Promise<void>((resolve) => (wake = resolve)), stop]);
      if (aborted()) break;
      await new Promise((resolve) => setTimeout(resolve, options.debounceMs ?? 50));
      dirty = false;
      const before = folders();
      const update = await watcher.update();
      const added = folders().filter((f) => !before.includes(f));
      if (added.length > 0) fsWatcher.add(added);
      if (update.changed.length > 0 || update.newSubagents.length > 0) yield update;
    }
  } finally {
    await fsWatcher.close();
  }
}
