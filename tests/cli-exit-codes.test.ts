/**
 * Exit codes agree with `romp --help` in every command: 2, with one `romp:` line naming the file, for a
 * transcript that cannot be read, and a `romp:` line (never a stack trace) for a system error. An
 * unreadable file needs a reader without root's bypass: as root, the binary runs as `nobody`.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, closeSync, copyFileSync, existsSync, mkdirSync, openSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { cli } from '../src/cli/cli.ts';
import { systemErrorLine } from '../src/cli/cli-io.ts';
import { EXAMPLE_SESSION } from '../src/cli/load-session.ts';
import { openIndexForRead } from '../src/index-db/open-index.ts';
import { tempDir } from './helpers/temp-dir.ts';

const NOBODY = 65534;
// the bundled command line, as package.json's bin ships it: its command modules load from dist/ (build/bundle-cli.ts)
const bin = new URL('../src/cli/romp.cjs', import.meta.url).pathname;

async function romp(
  argv: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; out: string; err: string }> {
  const asRoot = process.getuid?.() === 0;
  const child = spawn(process.execPath, [bin, ...argv], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(asRoot ? { uid: NOBODY, gid: NOBODY } : {}),
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { code, out, err };
}

test('an unreadable transcript exits 2 with a romp: line in every command that reads one (show … usage, doctor, watch, ls)', async () => {
  const dir = tempDir('romp-exit-');
  const projects = join(dir, 'projects');
  mkdirSync(join(projects, '-work-app'), { recursive: true });
  const locked = join(projects, '-work-app', 'locked.jsonl');
  copyFileSync(EXAMPLE_SESSION, locked);
  chmodSync(locked, 0o000);
  for (const d of [dir, projects, join(projects, '-work-app')]) chmodSync(d, 0o755);
  const home = join(dir, 'home');
  const env = { ROMP_HOME: home, CLAUDE_CONFIG_DIR: dir, HOME: dir };
  const commands = [
    ['show'],
    ['json'],
    ['turns'],
    ['segments'],
    ['tools'],
    ['usage'],
    ['doctor'],
    ['watch'],
    ['stream'],
    ['register', 'R'],
    ['resume', 'R'],
  ];
  const results: Array<readonly [string, { code: number | null; err: string }]> = [];
  for (const command of commands) results.push([command[0] as string, await romp([...command, locked], env)] as const);
  results.push(['usage --projects', await romp(['usage', '--projects', projects], env)]);
  results.push(['ls', await romp(['ls', '--projects', projects], env)]);
  const summary = results.map(([name, r]) => [
    name,
    r.code,
    /^romp: .*locked\.jsonl: cannot read: permission denied \(EACCES\)$/m.test(r.err) && !/\n\s+at /.test(r.err),
  ]);
  assert.deepEqual(summary, [...commands.map((c) => [c[0], 2, true]), ['usage --projects', 2, true], ['ls', 2, true]]);
  // a whole file is no "assistant line could not be read": its one romp: line says it all
  assert.deepEqual(
    results.filter(([name]) => name.startsWith('usage')).map(([, r]) => /assistant line/.test(r.err)),
    [false, false],
  );
});

test('EISDIR, ENOTDIR, EACCES from the romp home are one romp: line and exit 2, not a stack trace', async () => {
  const dir = tempDir('romp-exit-');
  const home = join(dir, 'home');
  mkdirSync(join(home, 'sessions', 'R.json'), { recursive: true }); // an entry that is a folder
  const file = join(dir, 'home-is-a-file');
  writeFileSync(file, 'x');
  let err = '';
  const io = { stdout: { write: () => true }, stderr: { write: (s: string) => (err += s) } };
  const codes = [
    await cli(['register', 'R', EXAMPLE_SESSION, '--romp-home', home], io),
    await cli(['register', 'R', EXAMPLE_SESSION, '--romp-home', file], io),
    // a file as the home is said so by every command that uses one, not read as an empty registry
    await cli(['sessions', '--romp-home', file], io),
    await cli(['index', '--romp-home', file, '--projects', dir, '--no-progress'], io),
  ];
  assert.deepEqual(codes, [2, 2, 2, 2]);
  const notAFolder = `romp: romp's home ${file} is not a folder (set by --romp-home)\n`;
  assert.match(
    err,
    /^romp: cannot write registry entry .*\/sessions\/R\.json: EISDIR: illegal operation on a directory, rename '.*' -> '.*\/sessions\/R\.json'\n/,
  );
  assert.equal(err.split('\n').slice(1).join('\n'), notAFolder.repeat(3));
  const saved = process.env['ROMP_HOME'];
  process.env['ROMP_HOME'] = file;
  try {
    err = '';
    assert.equal(await cli(['sessions'], io), 2);
    assert.equal(err, `romp: romp's home ${file} is not a folder (set by ROMP_HOME)\n`);
  } finally {
    if (saved === undefined) delete process.env['ROMP_HOME'];
    else process.env['ROMP_HOME'] = saved;
  }
  chmodSync(dir, 0o755);
  const readOnly = await romp(
    ['register', 'R', EXAMPLE_SESSION, '--romp-home', join(dir, 'owned-by-someone-else')],
    {},
  );
  assert.deepEqual(
    [
      readOnly.code,
      /^romp: cannot write registry entry .*: EACCES: permission denied, mkdir '.*owned-by-someone-else/.test(
        readOnly.err,
      ),
    ],
    [2, true],
    readOnly.err,
  );
});

test('an index path that is a folder is one romp: line and exit 2 in romp index and search, not a stack trace', async () => {
  const dir = tempDir('romp-exit-');
  const home = join(dir, 'home');
  mkdirSync(join(home, 'index.db'), { recursive: true });
  mkdirSync(join(dir, 'projects', '-work-app'), { recursive: true });
  copyFileSync(EXAMPLE_SESSION, join(dir, 'projects', '-work-app', 'ok.jsonl'));
  const projects = join(dir, 'projects');
  for (const argv of [['index'], ['search', 'word']]) {
    let err = '';
    const io = { stdout: { write: () => true }, stderr: { write: (s: string) => (err += s) } };
    const code = await cli([...argv, '--romp-home', home, '--projects', projects, '--no-progress'], io);
    assert.deepEqual(
      [code, err],
      [2, `romp: Path is a directory: rm returned EISDIR (is a directory) ${join(home, 'index.db')}\n`],
      argv[0],
    );
  }
});

test(
  'a full disk on stdout (ENOSPC, /dev/full) is one romp: line and exit 2, not a stack trace',
  { skip: !existsSync('/dev/full') },
  async () => {
    for (const argv of [
      ['show', EXAMPLE_SESSION],
      ['json', EXAMPLE_SESSION],
      ['ls', '--projects', tempDir('romp-full-')],
    ]) {
      const full = openSync('/dev/full', 'w');
      const child = spawn(process.execPath, [bin, ...argv], { stdio: ['ignore', full, 'pipe'] });
      let err = '';
      (child.stderr as NodeJS.ReadableStream).on('data', (d: Buffer) => (err += d.toString()));
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      closeSync(full);
      assert.deepEqual([code, err], [2, 'romp: ENOSPC: no space left on device, write\n'], argv[0]);
    }
  },
);

test('a system error line names the error on one line, control characters escaped; other errors are left to throw', () => {
  const enospc = Object.assign(new Error("ENOSPC: no space left on device, write '/x/\u001b[31m.json'"), {
    code: 'ENOSPC',
  });
  assert.equal(systemErrorLine(enospc), "ENOSPC: no space left on device, write '/x/\\u001b[31m.json'");
  const eisdir = Object.assign(new Error('Path is a directory: rm returned EISDIR (is a directory) /x'), {
    code: 'ERR_FS_EISDIR',
  });
  assert.equal(systemErrorLine(eisdir), 'Path is a directory: rm returned EISDIR (is a directory) /x');
  assert.equal(systemErrorLine(new TypeError('x is undefined')), undefined);
  assert.equal(systemErrorLine(Object.assign(new Error('commander'), { code: 'commander.unknownOption' })), undefined);
});

/**
 * A projects folder of two project folders, each with a copy of the example session (`-work-app/ok.jsonl`,
 * `-work-locked/hidden.jsonl`), every folder open to all and a romp home anyone may write: `lock()` then makes
 * `-work-locked` unreadable (mode 000).
 */
function twoProjects(): { projects: string; locked: string; home: string; env: Record<string, string> } {
  const dir = tempDir('romp-exit-folders-');
  const projects = join(dir, 'projects');
  const locked = join(projects, '-work-locked');
  const home = join(dir, 'home');
  for (const d of [join(projects, '-work-app'), locked, home]) mkdirSync(d, { recursive: true });
  copyFileSync(EXAMPLE_SESSION, join(projects, '-work-app', 'ok.jsonl'));
  copyFileSync(EXAMPLE_SESSION, join(locked, 'hidden.jsonl'));
  for (const d of [dir, projects, join(projects, '-work-app'), locked]) chmodSync(d, 0o755);
  chmodSync(home, 0o777);
  return { projects, locked, home, env: { ROMP_HOME: home, CLAUDE_CONFIG_DIR: dir, HOME: dir } };
}

/** The line `romp ls`, `usage`, `index` and `search` give for a folder they cannot read. */
const unreadable = (folder: string): string => `romp: skipped ${folder}: cannot read: permission denied (EACCES)\n`;

test('a project folder that cannot be read is named on stderr by ls and usage, not skipped in silence', async () => {
  const { projects, locked, env } = twoProjects();
  chmodSync(locked, 0o000);
  for (const argv of [['ls'], ['usage']]) {
    const { err } = await romp([...argv, '--projects', projects], env);
    assert.ok(err.includes(unreadable(locked)), `${argv.join(' ')}: ${err}`);
  }
});

test('romp index names a folder it cannot read and keeps the rows of its files', async () => {
  const { projects, locked, home, env } = twoProjects();
  const indexed = (): unknown[] => {
    const db = openIndexForRead(join(home, 'index.db'));
    if (typeof db === 'string') assert.fail(db);
    const paths = db.all('SELECT path FROM files ORDER BY path').map((r) => r['path']);
    db.close();
    return paths;
  };
  assert.equal((await romp(['index', '--projects', projects], env)).code, 0);
  const both = [join(projects, '-work-app', 'ok.jsonl'), join(locked, 'hidden.jsonl')];
  assert.deepEqual(indexed(), both);
  chmodSync(locked, 0o000);
  const { err } = await romp(['index', '--projects', projects], env);
  assert.ok(err.includes(unreadable(locked)), err);
  // its files are hidden, not gone: their rows stay
  assert.deepEqual(indexed(), both);
});

test('romp index and search name each file they cannot read or that is not a transcript, list them, go on, exit 0', async () => {
  const { projects, home, env } = twoProjects();
  const app = join(projects, '-work-app');
  const locked = join(app, 'locked.jsonl');
  const binary = join(app, 'binary.jsonl');
  copyFileSync(EXAMPLE_SESSION, locked);
  chmodSync(locked, 0o644);
  assert.equal((await romp(['index', '--projects', projects, '--no-progress'], env)).code, 0);
  chmodSync(locked, 0o000);
  writeFileSync(binary, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 1, 2]), { mode: 0o644 });
  const notTranscript = `not a Claude Code transcript (none of its first 3 lines is a transcript line; romp doctor ${binary} says why)`;
  const skipped = [
    { path: binary, reason: notTranscript },
    { path: locked, reason: 'cannot read: permission denied (EACCES)' },
  ];
  const lines = skipped.map((s) => `romp: skipped ${s.path}: ${s.reason}\n`).join('');
  const index = await romp(['index', '--projects', projects, '--json', '--no-progress'], env);
  const report = JSON.parse(index.out) as { files: number; added: number; skipped: unknown };
  assert.deepEqual([index.code, index.err], [0, lines]);
  assert.deepEqual([report.files, report.added, report.skipped], [2, 0, skipped]);
  const db = openIndexForRead(join(home, 'index.db'));
  if (typeof db === 'string') assert.fail(db);
  const paths = db.all('SELECT path FROM files ORDER BY path').map((r) => r['path']);
  db.close();
  // the binary is not indexed; the file that cannot be read now keeps its rows
  assert.deepEqual(paths, [locked, join(app, 'ok.jsonl'), join(projects, '-work-locked', 'hidden.jsonl')]);
  // a search refreshes first: the same lines, once each, then its hits
  const search = await romp(['search', 'parser', '--projects', projects, '--json'], env);
  assert.deepEqual([search.code, search.err], [0, lines]);
  assert.equal((JSON.parse(search.out) as unknown[]).length > 0, true);
});
