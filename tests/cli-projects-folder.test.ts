import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from './helpers/run-cli.ts';
import { tempDir } from './helpers/temp-dir.ts';

const WHAT =
  "Claude Code's projects folder: $CLAUDE_CONFIG_DIR/projects, else ~/.claude/projects; --projects names another";

test('a missing projects folder is one error, worded alike, in every command that lists sessions', async () => {
  const root = tempDir('romp-projects-folder-');
  const home = join(root, 'home');
  const missing = join(root, 'nowhere');
  const commands = [
    ['ls'],
    ['ls', '--project', '/work/app'],
    ['show', '--latest'],
    ['cat', '03eb5929'],
    ['tools', '--project', '.'],
    ['index', '--romp-home', home],
    ['search', 'flaky', '--romp-home', home],
    ['watch', '--latest'],
    ['usage'],
    ['resume-check'],
    ['export', '--format', 'ndjson', '-o', join(root, 'lake')],
    ['serve', '--port', '0'],
  ];
  for (const argv of commands) {
    const r = await runCli([...argv, '--projects', missing]);
    assert.deepEqual(r, { code: 2, out: '', err: `romp: ${missing}: no such folder (${WHAT})\n` }, argv.join(' '));
  }
  // the default folder too: a misspelt CLAUDE_CONFIG_DIR was "no sessions", exit 0
  const saved = process.env['CLAUDE_CONFIG_DIR'];
  process.env['CLAUDE_CONFIG_DIR'] = root;
  try {
    assert.deepEqual(await runCli(['ls']), {
      code: 2,
      out: '',
      err: `romp: ${join(root, 'projects')}: no such folder (${WHAT})\n`,
    });
  } finally {
    if (saved === undefined) delete process.env['CLAUDE_CONFIG_DIR'];
    else process.env['CLAUDE_CONFIG_DIR'] = saved;
  }
});

test('a file given as the projects folder is not a folder; an empty folder has no sessions, exit 0', async () => {
  const root = tempDir('romp-projects-folder-');
  const file = join(root, 'projects.jsonl');
  writeFileSync(file, '{}\n');
  for (const argv of [['ls'], ['show', '--latest'], ['index', '--romp-home', join(root, 'home')]]) {
    const r = await runCli([...argv, '--projects', file]);
    assert.deepEqual(r, { code: 2, out: '', err: `romp: ${file}: not a folder (${WHAT})\n` }, argv.join(' '));
  }
  const empty = join(root, 'projects');
  mkdirSync(empty);
  assert.deepEqual(await runCli(['ls', '--projects', empty]), {
    code: 0,
    out: `no sessions under ${empty}\n`,
    err: '',
  });
  assert.deepEqual(await runCli(['show', '--latest', '--projects', empty]), {
    code: 2,
    out: '',
    err: `romp: no sessions under ${empty}\n`,
  });
  // a report over every session of an empty folder is a report of nothing (a new install), not an error
  for (const argv of [['usage'], ['usage', 'session'], ['cache']]) {
    const r = await runCli([...argv, '--projects', empty, '--json']);
    assert.deepEqual([r.code, r.err], [0, `romp: no sessions under ${empty}\n`], argv.join(' '));
    assert.equal((JSON.parse(r.out) as { total: { cost_usd: number } }).total.cost_usd, 0, argv.join(' '));
  }
});
