import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { appendFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { watch } from 'chokidar';
import { cli } from '../../src/cli/cli.ts';
import { SessionWatcher } from '../../src/live/session-watcher.ts';
import { watchSession, type FolderWatcher, type WatchFactory } from '../../src/live/watch-session.ts';
import { recordResume, registerSession } from '../../src/romp-home/registry.ts';
import { assistant, text, user } from '../helpers/transcript.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const end = (mid: string) => ({ mid, stop: 'end_turn' });
const jsonl = (...records: object[]): string => records.map((r) => `${JSON.stringify(r)}\n`).join('');
function file(name = 'live.jsonl'): string {
  const path = join(tempDir('romp-race-'), name);
  writeFileSync(path, jsonl(user('u1', null, 'one', 0)));
  return path;
}
const until = async (done: () => boolean): Promise<void> => {
  while (!done()) await new Promise((resolve) => setTimeout(resolve, 10));
};

test('a watched file replaced by a folder, then deleted, then written again: FILE_UNREADABLE each time, never a throw, then read from the start', async () => {
  const path = file();
  const w = new SessionWatcher([path]);
  await w.update();
  rmSync(path);
  mkdirSync(path);
  const asFolder = await w.update();
  rmSync(path, { recursive: true });
  const deleted = await w.update();
  // other bytes: even where the new file gets the old inode, it is told apart
  writeFileSync(path, jsonl(user('u0', null, 'again', 0), assistant('a0', 'u0', text('back'), 1, end('m0'))));
  const back = await w.update();
  assert.deepEqual(
    [asFolder, deleted, back].map((u) => u.diagnostics.map((d) => [d.code, d.message])),
    [
      [['FILE_UNREADABLE', 'cannot read: not a regular file (a folder)']],
      [['FILE_UNREADABLE', 'cannot read: no such file or directory (ENOENT)']],
      [['FILE_REPLACED', 'file was replaced or rewritten; read again from the start']],
    ],
  );
  assert.deepEqual(
    back.session.turns.map((t) => t.atoms.map((a) => a.uuid)),
    [['u0', 'a0']],
  );
});

test('a watched file deleted is FILE_UNREADABLE once while it stays gone, and again after it came back and went', async () => {
  const path = file();
  const w = new SessionWatcher([path]);
  await w.update();
  rmSync(path);
  const updates = [await w.update(), await w.update(), await w.update()];
  // other bytes, so that it is FILE_REPLACED whether or not the new file gets the old inode (the same head on the
  // old inode would be an append)
  writeFileSync(path, jsonl(user('u0', null, 'again', 0), user('u2', 'u0', 'two', 1)));
  updates.push(await w.update());
  rmSync(path);
  updates.push(await w.update(), await w.update());
  assert.deepEqual(
    updates.map((u) => u.diagnostics.map((d) => d.code)),
    [['FILE_UNREADABLE'], [], [], ['FILE_REPLACED'], ['FILE_UNREADABLE'], []],
  );
});

test('romp watch: a file replaced by a folder mid-watch is FILE_UNREADABLE on stderr, and the watch goes on to its new lines', async () => {
  const path = file();
  const controller = new AbortController();
  let out = '';
  let err = '';
  const running = cli(
    ['watch', path, '--json', '--romp-home', tempDir('h-')],
    { stdout: { write: (s: string) => (out += s) }, stderr: { write: (s: string) => (err += s) } },
    controller.signal,
  );
  await until(() => out !== '');
  rmSync(path);
  mkdirSync(path);
  await until(() => err !== '');
  rmSync(path, { recursive: true });
  writeFileSync(path, jsonl(user('u1', null, 'one', 0), assistant('a1', 'u1', text('back'), 1, end('m1'))));
  await until(() => out.split('\n').length === 3);
  controller.abort();
  assert.equal(await running, 0);
  assert.match(err, new RegExp(`^${path}: error FILE_UNREADABLE cannot read: not a regular file \\(a folder\\)\n`));
  assert.deepEqual(
    out
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { turns: Array<{ atoms: unknown[] }> }).turns.map((t) => t.atoms.length)),
    [[1], [2]],
  );
});

/** A watcher that starts, then reports what fs.watch says when inotify runs out: no events ever come. */
function exhausted(code: string): FolderWatcher {
  const fake = Object.assign(new EventEmitter(), { add: () => undefined, close: async () => undefined });
  setImmediate(() => {
    fake.emit('ready');
    fake.emit(
      'error',
      Object.assign(new Error(`${code}: System limit for number of file watchers reached, watch '/x'`), { code }),
    );
  });
  return fake as unknown as FolderWatcher;
}

test('out of inotify watches (ENOSPC injected): watchSession polls instead, says so once, and sees the next append', async () => {
  const path = file();
  const made: boolean[] = [];
  const factory: WatchFactory = (folders, poll) => {
    made.push(poll);
    return poll
      ? (watch(folders, { ignoreInitial: true, usePolling: true, interval: 50 }) as unknown as FolderWatcher)
      : exhausted('ENOSPC');
  };
  const fallbacks: string[] = [];
  const controller = new AbortController();
  const seen: number[] = [];
  for await (const update of watchSession([path], {
    signal: controller.signal,
    debounceMs: 10,
    watchFactory: factory,
    onFallback: (e) => fallbacks.push(e.code ?? ''),
  })) {
    seen.push(update.session.turns[0]?.atoms.length ?? 0);
    if (seen.length === 1) appendFileSync(path, jsonl(assistant('a1', 'u1', text('one'), 1, end('m1'))));
    if (seen.length === 2) controller.abort();
  }
  assert.deepEqual([seen, made, fallbacks], [[1, 2], [false, true], ['ENOSPC']]);
});

test('out of watches when polling too (EMFILE injected both ways): watchSession throws "cannot watch …" with the code, not a silent exit', async () => {
  const path = file();
  const iterate = async (): Promise<void> => {
    for await (const _ of watchSession([path], {
      debounceMs: 10,
      watchFactory: () => exhausted('EMFILE'),
      onFallback: () => undefined,
    }))
      void _;
  };
  await assert.rejects(
    iterate(),
    (error: NodeJS.ErrnoException) =>
      error.code === 'EMFILE' && error.message.startsWith(`cannot watch ${join(path, '..')}: EMFILE`),
  );
});

test(
  'watch --session: a resume file registered mid-watch, in a folder not watched, is read with no other file event',
  { timeout: 30_000 },
  async () => {
    const home = tempDir('romp-race-home-');
    const first = file('s1.jsonl');
    await registerSession(home, { rompUuid: 'R', files: [{ fsid: 's1', path: first }] });
    const second = join(tempDir('romp-race-elsewhere-'), 's2.jsonl');
    writeFileSync(second, jsonl(user('u2', 'u1', 'two', 100)));
    const controller = new AbortController();
    const seen: string[][] = [];
    for await (const update of watchSession([], {
      rompUuid: 'R',
      rompHome: home,
      signal: controller.signal,
      debounceMs: 10,
    })) {
      seen.push(update.session.files.map((f) => f.fsid));
      if (seen.length === 1) await recordResume(home, 'R', 's2', second);
      else controller.abort();
    }
    assert.deepEqual(seen, [['s1'], ['s1', 's2']]);
  },
);
