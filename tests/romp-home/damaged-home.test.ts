import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { cli } from '../../src/cli/cli.ts';
import type { Diagnostic } from '../../src/diagnostics/diagnostic.ts';
import { SessionWatcher } from '../../src/live/session-watcher.ts';
import {
  listSessions,
  recordResume,
  registerSession,
  RegistryError,
  resolveSession,
} from '../../src/romp-home/registry.ts';
import { parseSession } from '../../src/session/parse-session.ts';
import { assistant, text, user, writeJsonl } from '../helpers/transcript.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const BAD = {
  null: 'null',
  empty: '{}',
  array: '[]',
  'files-null': '{"files":null}',
  'not-json': '{"rompUuid":',
  'wrong-types': '{"rompUuid":"wrong-types","name":1,"dir":"","color":"","files":[],"leafFsid":""}',
  'bad-file': '{"rompUuid":"bad-file","name":"","dir":"","color":"","files":[null],"leafFsid":""}',
};

/** A romp home whose registry holds one good entry (`good`) and every bad shape above. */
function damagedHome(): { home: string; file: string } {
  const home = tempDir('romp-damaged-');
  mkdirSync(join(home, 'sessions'));
  for (const [name, body] of Object.entries(BAD)) writeFileSync(join(home, 'sessions', `${name}.json`), body);
  const file = writeJsonl([
    user('u1', null, 'hi', 0),
    assistant('a1', 'u1', text('hello'), 1, { mid: 'm1', stop: 'end_turn' }),
  ]);
  writeFileSync(
    join(home, 'sessions', 'good.json'),
    JSON.stringify({
      rompUuid: 'good',
      name: 'Good',
      dir: '',
      color: '',
      files: [{ fsid: 'f', path: file }],
      leafFsid: 'f',
    }),
  );
  return { home, file };
}

const skipped = (ds: Diagnostic[]): string[] =>
  ds
    .filter((d) => d.code === 'BAD_REGISTRY_ENTRY')
    .map((d) => d.file.replace(/^.*\//, ''))
    .sort();
const badFiles = Object.keys(BAD)
  .map((n) => `${n}.json`)
  .sort();

test('registry entries null, {}, [], {"files":null}, not JSON or of wrong types are skipped, each named', async () => {
  const { home } = damagedHome();
  const diagnostics: Diagnostic[] = [];
  assert.deepEqual(
    (await listSessions(home, (d) => diagnostics.push(d))).map((e) => e.rompUuid),
    ['good'],
  );
  assert.deepEqual(skipped(diagnostics), badFiles);
  assert.equal(await resolveSession(home, 'files-null'), undefined);
});

test('a damaged home folder never breaks a parse of files given by path, nor a watch, nor romp show', async () => {
  const { home, file } = damagedHome();
  const parsed = await parseSession([file], { rompHome: home });
  assert.deepEqual([parsed.session.turns.length, skipped(parsed.diagnostics)], [1, badFiles]);
  const bySession = await parseSession([], { rompHome: home, rompUuid: 'files-null' });
  assert.deepEqual([bySession.session.turns.length, skipped(bySession.diagnostics)], [0, badFiles]);
  const watcher = new SessionWatcher([file], { rompHome: home, rompUuid: 'null' });
  const update = await watcher.update();
  assert.deepEqual([update.session.turns.length, skipped(update.diagnostics)], [1, badFiles]);
  let out = '';
  const code = await cli(['show', file, '--romp-home', home], {
    stdout: { write: (s: string) => (out += s) },
    stderr: { write: () => {} },
  });
  assert.deepEqual([code, /1 turns?/.test(out)], [0, true]);
});

test('a resume onto a damaged entry is refused; register replaces it', async () => {
  const { home } = damagedHome();
  await assert.rejects(
    recordResume(home, 'files-null', 'f2', '/x/f2.jsonl'),
    (e: Error) =>
      e instanceof RegistryError && /files-null\.json: .*; not replaced \(fix or remove it\)$/.test(e.message),
  );
  assert.equal(readFileSync(join(home, 'sessions', 'files-null.json'), 'utf8'), '{"files":null}');
  const entry = await registerSession(home, { rompUuid: 'files-null', files: [{ fsid: 'f2', path: '/x/f2.jsonl' }] });
  assert.deepEqual(await resolveSession(home, 'files-null'), entry);
});

test('a read-only registry entry is reported, not replaced; a failed write leaves no .tmp', async () => {
  const { home } = damagedHome();
  const path = join(home, 'sessions', 'good.json');
  const before = readFileSync(path, 'utf8');
  chmodSync(path, 0o444);
  await assert.rejects(recordResume(home, 'good', 'f2', '/x/f2.jsonl'), /good\.json is read-only; not replaced/);
  assert.equal(readFileSync(path, 'utf8'), before);
  // the entry's path is a folder: the rename fails after the temp file was written
  mkdirSync(join(home, 'sessions', 'folder.json', 'inside'), { recursive: true });
  await assert.rejects(
    registerSession(home, { rompUuid: 'folder', files: [] }),
    (e: Error) => e instanceof RegistryError && /^cannot write registry entry .*folder\.json: /.test(e.message),
  );
  assert.deepEqual(
    readdirSync(join(home, 'sessions')).filter((n) => n.endsWith('.tmp')),
    [],
  );
  let err = '';
  const file = writeJsonl([user('u1', null, 'hi', 0)]);
  const code = await cli(['resume', 'good', file, '--romp-home', home], {
    stdout: { write: () => {} },
    stderr: { write: (s: string) => (err += s) },
  });
  assert.deepEqual([code, err.split('\n').length, err.startsWith('romp: ')], [2, 2, true]);
});
