import assert from 'node:assert/strict';
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { matchesProjectKey, projectKey } from '../src/discover/project-key.ts';
import { UserError } from '../src/cli/cli-io.ts';
import { resolveTargets } from '../src/cli/resolve-targets.ts';
import { user } from './helpers/transcript.ts';
import { tempDir } from './helpers/temp-dir.ts';
import { keepingColumns } from './helpers/keeping-columns.ts';
import { runCli } from './helpers/run-cli.ts';

const noStdin = { stdout: { write: () => true }, stderr: { write: () => true } };

/** Three sessions in two projects (`/work/app`, `/home/user/my-site`); times: b newest, then c, then a. */
function projects(): { root: string; a: string; b: string; c: string } {
  const root = tempDir('romp-targets-');
  const write = (project: string, id: string, sec: number): string => {
    const path = join(root, project, `${id}.jsonl`);
    mkdirSync(dirname(path), { recursive: true });
    const cwd = project === '-work-app' ? '/work/app' : '/home/user/my-site';
    writeFileSync(path, `${JSON.stringify(user('u1', null, `prompt of ${id}`, sec, { sessionId: id, cwd }))}\n`);
    return path;
  };
  return {
    root,
    a: write('-work-app', '03eb5929-aaaa-4000-8000-000000000001', 0),
    b: write('-work-app', '03ec0000-bbbb-4000-8000-000000000002', 300),
    c: write('-home-user-my-site', '7d1e0000-cccc-4000-8000-000000000003', 200),
  };
}

test('projectKey encodes a cwd as Claude Code names its folder; a long one is matched by its cut key', () => {
  assert.equal(projectKey('/home/user/my site.v2'), '-home-user-my-site-v2');
  const long = `/work/${'x'.repeat(300)}`;
  assert.equal(projectKey(long).length, 200);
  assert.equal(matchesProjectKey(`${projectKey(long)}-1a2b3c`, long), true);
  assert.equal(matchesProjectKey(projectKey('/work/app'), '/work/app'), true);
  assert.equal(matchesProjectKey('-work-app-2', '/work/app'), false);
});

test('resolveTargets: a path stays, an id or a unique prefix finds its file, an ambiguous prefix lists both', async () => {
  const { root, a, c } = projects();
  const options = { projects: root, timezone: 'Asia/Tokyo' };
  assert.deepEqual(
    (await resolveTargets([c, '03eb', '7d1e0000-cccc-4000-8000-000000000003'], options, 'one', noStdin)).files,
    [c, a, c],
  );
  await assert.rejects(resolveTargets(['03e'], options, 'one', noStdin), (error: Error) => {
    assert.ok(error instanceof UserError);
    assert.match(
      error.message,
      /^03e matches 2 sessions \(last activity in Asia\/Tokyo\); give more of the id:\n {2}03ec0000-bbbb-4000-8000-000000000002 {2}\/work\/app {2}2026-03-01 19:05 {2}prompt of 03ec0000/,
    );
    assert.match(error.message, /\n {2}03eb5929-aaaa-4000-8000-000000000001 {2}\/work\/app {2}2026-03-01 19:00 /);
    return true;
  });
  await assert.rejects(
    resolveTargets(['ffff'], options, 'one', noStdin),
    /ffff: no such file, and no session id starting with it under/,
  );
});

test('resolveTargets: --latest, --project by real path or folder name, one or many', async () => {
  const { root, a, b, c } = projects();
  assert.deepEqual((await resolveTargets([], { projects: root, latest: true }, 'one', noStdin)).files, [b]);
  assert.deepEqual(
    (await resolveTargets([], { projects: root, project: '/home/user/my-site' }, 'one', noStdin)).files,
    [c],
  );
  assert.deepEqual((await resolveTargets([], { projects: root, project: '.' }, 'many', noStdin, '/work/app')).files, [
    b,
    a,
  ]);
  assert.deepEqual(
    (await resolveTargets([], { projects: root, project: '-work-app', latest: true }, 'many', noStdin)).files,
    [b],
  );
  assert.deepEqual(
    await resolveTargets(['03eb'], { projects: root, project: '/home/user/my-site' }, 'one', noStdin).catch(
      (e: Error) => e.message,
    ),
    '03eb: no such file, and no session id starting with it under ' + root,
  );
  await assert.rejects(
    resolveTargets([], { projects: root, project: '/nowhere' }, 'one', noStdin),
    /no sessions for project \/nowhere under .* \(no folder -nowhere\)/,
  );
  assert.deepEqual((await resolveTargets([], { projects: root }, 'one', noStdin)).files, []);
});

test('resolveTargets: - copies standard input to a temporary file, removed by cleanup', async () => {
  const line = `${JSON.stringify(user('u1', null, 'from stdin', 0))}\n`;
  const targets = await resolveTargets(['-'], {}, 'one', { ...noStdin, stdin: [Buffer.from(line)] });
  const [path] = targets.files;
  assert.ok(path !== undefined && path.endsWith('stdin.jsonl'));
  assert.equal(existsSync(path), true);
  await targets.cleanup();
  assert.equal(existsSync(path), false);
});

test('resolveTargets: a link that exists by its name is a path, even a loop or one leading nowhere', async () => {
  const { root } = projects();
  const dir = tempDir('romp-targets-links-');
  symlinkSync(join(dir, 'loop1'), join(dir, 'loop1'));
  symlinkSync(join(dir, 'nowhere'), join(dir, 'dangling'));
  const was = process.cwd();
  process.chdir(dir);
  try {
    // id-like names: before, a stat that failed made them session ids ("no session id starting with it")
    assert.deepEqual((await resolveTargets(['loop1', 'dangling'], { projects: root }, 'one', noStdin)).files, [
      'loop1',
      'dangling',
    ]);
  } finally {
    process.chdir(was);
  }
});

test('resolveTargets: an orphan subagent file opens by the id romp ls lists it with; --latest is never one', async () => {
  const root = tempDir('romp-targets-orphan-');
  mkdirSync(join(root, '-work-app'));
  const orphan = join(root, '-work-app', 'agent-9fa17969.jsonl');
  // a 2.0.x flat subagent file whose session (gone-0000) is not in the folder, newer than the one session
  writeFileSync(
    orphan,
    `${JSON.stringify(user('x1', null, 'task', 50, { sessionId: 'gone-0000', isSidechain: true }))}\n`,
  );
  const own = join(root, '-work-app', 'own-0001.jsonl');
  writeFileSync(own, `${JSON.stringify(user('u1', null, 'hello', 10, { sessionId: 'own-0001' }))}\n`);
  const options = { projects: root };
  assert.deepEqual((await resolveTargets(['agent-9f'], options, 'one', noStdin)).files, [orphan]);
  assert.deepEqual((await resolveTargets([], { ...options, latest: true }, 'one', noStdin)).files, [own]);
});

test('an ambiguous prefix lists its candidates fitted to COLUMNS, each id whole, their text made safe', async () => {
  const { root, b } = projects();
  // a title with a terminal escape and a line break, as a transcript can hold
  writeFileSync(b, `${JSON.stringify({ type: 'custom-title', customTitle: 'fix\u001b[2J the\nparser' })}\n`, {
    flag: 'a',
  });
  const err = await keepingColumns(async () => {
    process.env['COLUMNS'] = '60';
    return (await runCli(['show', '03e', '--projects', root, '--timezone', 'UTC'])).err;
  });
  assert.deepEqual(err.split('\n'), [
    'romp: 03e matches 2 sessions (last activity in UTC); give',
    '  more of the id:',
    '  03ec0000-bbbb-4000-8000-000000000002  /work/app  2026-03…',
    '  03eb5929-aaaa-4000-8000-000000000001  /work/app  2026-03…',
    '',
  ]);
  // in a pipe each line is whole
  const whole = (await runCli(['show', '03e', '--projects', root, '--timezone', 'UTC'])).err.split('\n');
  assert.equal(whole[1], '  03ec0000-bbbb-4000-8000-000000000002  /work/app  2026-03-01 10:05  fix\\x1b[2J the parser');
  // narrower than an id: the ids alone
  const narrow = await keepingColumns(async () => {
    process.env['COLUMNS'] = '30';
    return (await runCli(['show', '03e', '--projects', root])).err.split('\n');
  });
  assert.deepEqual(narrow.slice(-3), [
    '  03ec0000-bbbb-4000-8000-000000000002',
    '  03eb5929-aaaa-4000-8000-000000000001',
    '',
  ]);
});
