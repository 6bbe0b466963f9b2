import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { cli } from '../src/cli/cli.ts';
import { fitWidth } from '../src/cli/fit-width.ts';
import { assistant, text, user } from './helpers/transcript.ts';
import { tempDir } from './helpers/temp-dir.ts';

const end = (mid: string) => ({ mid, stop: 'end_turn' });
const jsonl = (...records: object[]): string => records.map((r) => `${JSON.stringify(r)}\n`).join('');

/** Runs `romp argv` in-process until aborted; `until` waits for what stdout (or stderr) holds. */
function watching(argv: string[]): {
  until: (what: (out: string, err: string) => boolean) => Promise<string>;
  stop: () => Promise<number>;
} {
  const controller = new AbortController();
  let out = '';
  let err = '';
  const waiting: Array<() => void> = [];
  const wake = (): void => {
    for (const w of waiting.splice(0)) w();
  };
  const running = cli(
    argv,
    { stdout: { write: (s: string) => ((out += s), wake()) }, stderr: { write: (s: string) => ((err += s), wake()) } },
    controller.signal,
  );
  return {
    // a wait that never ends fails the test after 30 s, with what was written, rather than hanging the run
    until: async (what) => {
      const deadline = Date.now() + 30_000;
      while (!what(out, err)) {
        if (Date.now() > deadline) throw new Error(`waited 30 s; stdout:\n${out}\nstderr:\n${err}`);
        await new Promise<void>((resolve) => {
          waiting.push(resolve);
          setTimeout(resolve, 1_000).unref();
        });
      }
      return out;
    },
    stop: async () => {
      controller.abort();
      return running;
    },
  };
}

test('watch into a pipe: the changed turns appended, a rewind marked on its own line, no escape sequence', async () => {
  const file = join(tempDir('romp-watch-cli-'), 's.jsonl');
  writeFileSync(
    file,
    jsonl(user('u1', null, 'one', 0), assistant('a1', 'u1', text('one'), 1, end('m1')), user('u2', 'a1', 'two', 5)),
  );
  const w = watching(['watch', file, '--timezone', 'UTC', '--poll']);
  await w.until((out) => out.includes('"two"'));
  appendFileSync(file, jsonl(user('u3', 'a1', 'three', 60)));
  const out = await w.until((s) => s.includes('"three"'));
  assert.equal(await w.stop(), 0);
  const lines = out.split('\n');
  assert.deepEqual(lines.slice(0, 4), [
    '#1  2026-03-01 10:00  human  completed  2 atoms  tokens in 110 out 5',
    '    "one"',
    '#2  2026-03-01 10:00  human  open  1 atom  tokens in 0 out 0',
    '    "two"',
  ]);
  assert.match(
    lines.find((l) => l.includes('rewind')) ?? '',
    /^romp: \d{4}-\d\d-\d\d \d\d:\d\d {2}rewind: turn #2 dropped$/,
  );
  assert.ok(lines.includes('#2  2026-03-01 10:01  human  open  1 atom  tokens in 0 out 0'));
  assert.ok(!out.includes('\x1b'));
});

test('watch --latest --json: a new session replaces the old one in the fold (its turns removed)', async () => {
  const projects = tempDir('romp-watch-cli-');
  const folder = join(projects, '-work-app');
  mkdirSync(folder);
  writeFileSync(join(folder, 'aaaa1111.jsonl'), jsonl(user('u1', null, 'first', 0)));
  const w = watching(['watch', '--latest', '--project', '-work-app', '--projects', projects, '--json', '--poll']);
  await w.until((out) => out.split('\n').length > 1);
  writeFileSync(join(folder, 'bbbb2222.jsonl'), jsonl(user('v1', null, 'second', 0)));
  const out = await w.until((s, err) => s.includes('"second"') && err.includes('following new session bbbb2222'));
  assert.equal(await w.stop(), 0);
  const [a, b] = out
    .trim()
    .split('\n')
    .map(
      (l) =>
        JSON.parse(l) as {
          changed: string[];
          removed: string[];
          turns: Array<{ id: string; atoms: Array<{ uuid: string }> }>;
        },
    );
  assert.deepEqual(Object.keys(a ?? {}), ['changed', 'removed', 'turns', 'cache_clock']);
  assert.deepEqual(
    a?.turns.map((t) => t.atoms.map((x) => x.uuid)),
    [['u1']],
  );
  assert.deepEqual(b?.removed, a?.changed);
  assert.deepEqual(
    b?.turns.map((t) => t.atoms.map((x) => x.uuid)),
    [['v1']],
  );
  assert.deepEqual(
    b?.changed,
    b?.turns.map((t) => t.id),
  );
});

test('watch of a path in a folder that does not exist is a usage error, naming the folder', async () => {
  let err = '';
  const code = await cli(['watch', '/nonexistent-romp/x.jsonl'], {
    stdout: { write: () => true },
    stderr: { write: (s: string) => (err += s) },
  });
  assert.equal(code, 2);
  assert.match(err, /\/nonexistent-romp\/x\.jsonl: no such file, and no folder \/nonexistent-romp to wait in/);
});

test('fitWidth counts wide characters twice and ends a cut line with …', () => {
  assert.equal(fitWidth('abcdef', 6), 'abcdef');
  assert.equal(fitWidth('abcdefg', 6), 'abcde…');
  assert.equal(fitWidth('日本語の文', 6), '日本…');
});

test('WatchScreen on a short terminal: the oldest turns summed up in one line, the block one line less than the height', async () => {
  const { parseSession } = await import('../src/session/parse-session.ts');
  const { WatchScreen } = await import('../src/cli/watch-screen.ts');
  const { timeFormat } = await import('../src/cli/format-time.ts');
  const file = join(tempDir('romp-watch-cli-'), 'many.jsonl');
  writeFileSync(
    file,
    jsonl(
      ...Array.from({ length: 6 }, (_, i) => [
        user(`u${i}`, i === 0 ? null : `a${i - 1}`, `q${i}`, i * 60),
        assistant(`a${i}`, `u${i}`, text('ok'), i * 60 + 1, end(`m${i}`)),
      ]).flat(),
    ),
  );
  const { session } = await parseSession([file]);
  let out = '';
  const screen = new WatchScreen(
    { write: () => true, styled: (s: string) => (out += s), isTTY: true, columns: 60, rows: 6 },
    timeFormat('UTC'),
  );
  screen.follow(file);
  screen.show({ session, changed: [], removed: [], clock: 'cache: expired' }, true);
  screen.show({ session, changed: [], removed: [], clock: 'cache: expired' }, false);
  assert.deepEqual(out.split('\n'), [
    '(untitled)  many.jsonl  6 turns  times in UTC',
    '… 4 earlier turns',
    '#5  2026-03-01 10:04  human  completed  2 atoms  tokens in…',
    '#6  2026-03-01 10:05  human  completed  2 atoms  tokens in…',
    'cache: expired',
    '\x1b[5F\x1b[J(untitled)  many.jsonl  6 turns  times in UTC',
    '… 4 earlier turns',
    '#5  2026-03-01 10:04  human  completed  2 atoms  tokens in…',
    '#6  2026-03-01 10:05  human  completed  2 atoms  tokens in…',
    'cache: expired',
    '',
  ]);
});

test('watch: a symlink loop is refused as unreadable, not waited for; one beside --latest does not crash it', async () => {
  const projects = tempDir('romp-watch-loop-');
  const folder = join(projects, '-work-app');
  mkdirSync(folder);
  symlinkSync('loop-b.jsonl', join(folder, 'loop-a.jsonl'));
  symlinkSync('loop-a.jsonl', join(folder, 'loop-b.jsonl'));
  const loop = join(folder, 'loop-a.jsonl');
  const refused = watching(['watch', loop, '--poll']);
  await refused.until((_, err) => err === `romp: ${loop}: cannot read: too many symbolic links encountered (ELOOP)\n`);
  const code = await refused.stop();
  assert.equal(code, 2);
  writeFileSync(join(folder, 'aaaa1111.jsonl'), jsonl(user('u1', null, 'first', 0)));
  // chokidar stats the loop as it walks the folder: an unhandled 'error' event ended the process with a stack trace
  const w = watching(['watch', '--latest', '--projects', projects, '--json', '--poll']);
  await w.until((out) => out.includes('"u1"'));
  writeFileSync(join(folder, 'bbbb2222.jsonl'), jsonl(user('v1', null, 'second', 0)));
  await w.until((s, err) => s.includes('"second"') && err.includes('following new session bbbb2222'));
  assert.equal(await w.stop(), 0);
});
