import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { openDatabase } from '../../src/index-db/database.ts';
import { PARSER_VERSION } from '../../src/index-db/parser-version.ts';
import { runCli } from '../helpers/run-cli.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { assistant, text, user } from '../helpers/transcript.ts';

const sk = { sessionId: 'sk' };

/**
 * One session `sk`, two turns. Turn 1: response `msg_same` sent twice, as `req_a` (output 3) and `req_b` (output 4):
 * two responses. Turn 2: a response without `requestId` whose id holds a NUL (`m\0x`), keyed within the session.
 */
function projects(): string {
  const root = tempDir('romp-fact-keys-');
  const project = join(root, '-work-app');
  mkdirSync(project, { recursive: true });
  const noRequest = assistant('a3', 'u2', text('c'), 5, { mid: 'm\u0000x', stop: 'end_turn', extra: sk });
  delete (noRequest as Record<string, unknown>)['requestId'];
  const lines = [
    user('u1', null, 'one', 1, sk),
    assistant('a1', 'u1', text('a'), 2, {
      mid: 'msg_same',
      stop: 'end_turn',
      usage: { input_tokens: 10, output_tokens: 3 },
      extra: { ...sk, requestId: 'req_a' },
    }),
    assistant('a2', 'a1', text('b'), 3, {
      mid: 'msg_same',
      stop: 'end_turn',
      usage: { input_tokens: 10, output_tokens: 4 },
      extra: { ...sk, requestId: 'req_b' },
    }),
    user('u2', 'a2', 'two', 4, sk),
    noRequest,
  ];
  writeFileSync(join(project, 'sk.jsonl'), lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
  return root;
}

const KEYS = ['["msg_same","req_a"]', '["msg_same","req_b"]', '["sk","m\\u0000x"]'];

test('romp sql prints usage-fact keys whole: one message id sent as two requests is two keys', async () => {
  const root = projects();
  const home = tempDir('romp-home-');
  assert.equal((await runCli(['index', '--projects', root, '--romp-home', home, '--no-progress'])).code, 0);
  const query = "SELECT key, length(key) AS n, json_extract(key, '$[0]') AS part FROM usage_facts ORDER BY key";
  const json = await runCli(['sql', query, '--romp-home', home, '--json']);
  assert.equal(json.code, 0);
  // 20 = `["` + 8 + `","` + 5 + `"]`; 17 = `["` + 2 + `","` + `m\u0000x` (8) + `"]`: every character, no NUL
  assert.deepEqual(JSON.parse(json.out), [
    { key: KEYS[0], n: 20, part: 'msg_same' },
    { key: KEYS[1], n: 20, part: 'msg_same' },
    { key: KEYS[2], n: 17, part: 'sk' },
  ]);
  const table = await runCli(['sql', 'SELECT key FROM usage_facts ORDER BY key', '--romp-home', home]);
  assert.equal(table.code, 0);
  const cells = table.out
    .split('\n')
    .filter((l) => l.startsWith('│'))
    .map((l) => l.slice(1, -1).trim());
  assert.deepEqual(cells, ['key', ...KEYS]);
});

test('a file another parser version indexed has all its rows made again, not only its changed turns', async () => {
  const root = projects();
  const home = tempDir('romp-home-');
  const index = (): Promise<unknown> => runCli(['index', '--projects', root, '--romp-home', home, '--no-progress']);
  await index();
  // as an older romp left them: other keys (its NUL-joined ones), the same turns, another parser version
  const db = openDatabase(join(home, 'index.db'));
  db.run(`UPDATE usage_facts SET key = message_id || char(0) || coalesce(request_id, '')`);
  db.run(`UPDATE files SET parser_version = '0.1.0/4'`);
  db.close();
  await index();
  const after = openDatabase(join(home, 'index.db'));
  assert.deepEqual(
    after.all('SELECT key FROM usage_facts ORDER BY key').map((r) => r['key']),
    KEYS,
  );
  assert.deepEqual(
    after.all('SELECT parser_version FROM files').map((r) => r['parser_version']),
    [PARSER_VERSION],
  );
  after.close();
});
