import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from './helpers/run-cli.ts';
import { tempDir } from './helpers/temp-dir.ts';
import { assistant, text, user } from './helpers/transcript.ts';

const A = 'aaaa1111-0000-4000-8000-000000000001';
const B = 'aaaa2222-0000-4000-8000-000000000002';

/** Two projects, a session each: A in /work/alpha (one response, input 10), B in /work/beta, a minute later
 * (two responses, input 20). */
function projects(): string {
  const dir = tempDir('romp-usage-targets-');
  const write = (folder: string, cwd: string, id: string, responses: number, sec: number): void => {
    mkdirSync(join(dir, folder));
    const lines = [user('u0', null, 'go', sec)];
    for (let i = 1; i <= responses; i++)
      lines.push(assistant(`a${i}`, i === 1 ? 'u0' : `a${i - 1}`, text('ok'), sec + i, { mid: `${id}-m${i}` }));
    const body = lines.map((l) => JSON.stringify({ ...l, sessionId: id, cwd })).join('\n');
    writeFileSync(join(dir, folder, `${id}.jsonl`), `${body}\n`);
  };
  write('-work-alpha', '/work/alpha', A, 1, 0);
  write('-work-beta', '/work/beta', B, 2, 60);
  return dir;
}

const input = async (argv: string[]): Promise<number> => {
  const r = await runCli(['usage', ...argv, '--json', '--no-index']);
  assert.equal(r.code, 0, r.err);
  return (JSON.parse(r.out) as { total: { input_tokens: number } }).total.input_tokens;
};

test('romp usage takes a session id, a unique prefix, --project and --latest, looked up under --projects', async () => {
  const dir = projects();
  assert.equal(await input(['--projects', dir]), 30);
  assert.equal(await input([A, '--projects', dir]), 10);
  assert.equal(await input(['session', 'aaaa2', '--projects', dir]), 20);
  assert.equal(await input(['--project', '/work/alpha', '--projects', dir]), 10);
  assert.equal(await input(['--latest', '--projects', dir]), 20);
});

test('romp usage: an ambiguous prefix lists its sessions; an unknown id says where it looked; exit 2', async () => {
  const dir = projects();
  const ambiguous = await runCli(['usage', 'aaaa', '--projects', dir]);
  assert.equal(ambiguous.code, 2);
  assert.match(ambiguous.err, /^romp: aaaa matches 2 sessions/);
  assert.ok(ambiguous.err.includes(A) && ambiguous.err.includes(B));
  const unknown = await runCli(['usage', 'ffff', '--projects', dir]);
  assert.equal(unknown.code, 2);
  assert.equal(unknown.err, `romp: ffff: no such file, and no session id starting with it under ${dir}\n`);
  assert.equal(unknown.out, '');
});
