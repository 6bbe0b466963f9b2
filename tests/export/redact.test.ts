/**
 * `--redact`: romp's structural rules and secretlint's recommended preset over a hand-made session
 * holding made-up secrets, with the count per rule the export reports.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { test } from 'node:test';
import type { Atom, Session } from '../../src/model/types.ts';
import { redactSession, type RedactionCounts } from '../../src/redact/redact-session.ts';
import { secretlintFinder } from '../../src/redact/secretlint-finder.ts';
import { isEnvFile, structuralFindings } from '../../src/redact/structural-rules.ts';
import { keyed } from '../../src/model/keyed.ts';
import { runCli } from '../helpers/run-cli.ts';
import { tempDir } from '../helpers/temp-dir.ts';

// made-up values in the shapes the rules look for, assembled so no scanner flags this file
const GITHUB = ['ghp', '_', 'Zq4x9Lm2Vb7Nc1Kd8Fh3Jw6Ty5Rs0PaEgUi7'].join('');
const KEY_BODY = 'MIIEowIBAAKCAQEAzq\nq1w2e3r4t5y6u7i8o9p0\n';
const PRIVATE_KEY = `-----BEGIN RSA PRIVATE KEY-----\n${KEY_BODY}-----END RSA PRIVATE KEY-----`;

function session(): Session {
  const atom = (uuid: string, type: 'user' | 'assistant', content: unknown[]): Atom => ({
    type,
    uuid,
    session_id: 'r',
    t: 1,
    message: { role: type, content: content as never },
  });
  const atoms = [
    atom('u1', 'user', [{ type: 'text', text: `push with ${GITHUB} please` }]),
    atom('a1', 'assistant', [
      { type: 'text', text: 'curl -H "Authorization: Bearer abcdef123456" https://x' },
      { type: 'tool_use', id: 't1', name: 'Read', input: { file_path: '/w/.env.local' } },
      {
        type: 'tool_use',
        id: 't2',
        name: 'Bash',
        input: { command: `export API_KEY=s3cr3tvalue99 && echo ${PRIVATE_KEY}` },
      },
    ]),
    atom('r1', 'user', [
      { type: 'tool_result', tool_use_id: 't1', content: 'DB_PASSWORD=hunter2hunter2' },
      { type: 'tool_result', tool_use_id: 't2', content: [{ type: 'text', text: 'ok' }] },
    ]),
  ];
  return {
    rompUuid: 'r',
    name: '',
    dir: '',
    color: '#000000',
    leafFsid: 'r',
    files: [],
    records: [],
    turns: [{ id: 'r:1:x', trigger: { uuid: 'u1' }, t: 1, end: 1, ended: true, atoms }],
  };
}

const texts = (s: Session): unknown[] => (s.turns[0]?.atoms ?? []).flatMap((a) => a.message?.content ?? []);

test('structural rules find headers, assignments and key blocks, in linear time', () => {
  assert.deepEqual(
    structuralFindings('Authorization: Bearer abcdef123456 rest').map((f) => f.rule),
    ['romp/authorization-header'],
  );
  assert.deepEqual(structuralFindings('x API_KEY=short y'), [], 'under 8 characters is no secret');
  const unclosed = `a ${'-----BEGIN PRIVATE KEY-----'.repeat(3)} b`;
  assert.deepEqual(structuralFindings(unclosed), [{ rule: 'romp/private-key', start: 2, end: unclosed.length }]);
  // long runs the rules must not backtrack over (each would take minutes if they did)
  assert.equal(structuralFindings('secret'.repeat(50_000)).length, 0);
  assert.equal(structuralFindings(`${'a_'.repeat(50_000)}=`).length, 0);
  assert.equal(structuralFindings(`authorization:${' '.repeat(100_000)}`).length, 0);
  assert.ok(
    isEnvFile('/a/.env') && isEnvFile('C:\\a\\.env.production') && isEnvFile('prod.env') && !isEnvFile('/a/env.ts'),
  );
});

test('redactSession masks secrets, drops tool results, and counts each rule', async () => {
  const s = session();
  const counts: RedactionCounts = keyed<number>();
  await redactSession([s], { finder: secretlintFinder() }, counts);
  const [prompt, reply, read, bash, envResult, bashResult] = texts(s) as Array<Record<string, unknown>>;
  assert.equal(prompt?.['text'], 'push with [redacted:@secretlint/secretlint-rule-github] please');
  assert.equal(reply?.['text'], 'curl -H "[redacted:romp/authorization-header]" https://x');
  assert.deepEqual(read?.['input'], { file_path: '/w/.env.local' });
  assert.equal(
    (bash?.['input'] as Record<string, unknown>)['command'],
    'export API_KEY=[redacted:romp/secret-assignment] && echo [redacted:romp/private-key]',
  );
  assert.equal(envResult?.['content'], '[redacted: 26 chars]');
  assert.equal(bashResult?.['content'], '[redacted: 2 chars]');
  assert.deepEqual(
    { ...counts },
    {
      '@secretlint/secretlint-rule-github': 1,
      'romp/authorization-header': 1,
      'romp/secret-assignment': 1,
      'romp/private-key': 1,
      'romp/env-file': 1,
      'romp/tool-result': 1,
    },
  );
});

test('--keep-tool-results keeps results but still drops a dotenv read and masks secrets in the rest', async () => {
  const s = session();
  const counts: RedactionCounts = keyed<number>();
  await redactSession([s], { keepToolResults: true }, counts);
  const [, , , , envResult, bashResult] = texts(s) as Array<Record<string, unknown>>;
  assert.equal(envResult?.['content'], '[redacted: 26 chars]');
  assert.deepEqual(bashResult?.['content'], [{ type: 'text', text: 'ok' }]);
  assert.equal(counts['romp/env-file'], 1);
  assert.equal(counts['romp/tool-result'], undefined);
  assert.equal(counts['@secretlint/secretlint-rule-github'], undefined, 'no finder given');
});

test('romp export --format ndjson --redact: masked rows and the count per rule in the report', async () => {
  const projects = tempDir('romp-redact-');
  mkdirSync(join(projects, '-w'));
  const line = (o: Record<string, unknown>): string =>
    `${JSON.stringify({ sessionId: 's9', version: '2.1.150', timestamp: '2026-03-01T10:00:00.000Z', ...o })}\n`;
  writeFileSync(
    join(projects, '-w', 's9.jsonl'),
    line({
      parentUuid: null,
      type: 'user',
      uuid: 'u1',
      promptSource: 'typed',
      message: { role: 'user', content: `token ${GITHUB}` },
    }) +
      line({
        parentUuid: 'u1',
        type: 'assistant',
        uuid: 'a1',
        requestId: 'req_1',
        message: {
          id: 'msg_1',
          role: 'assistant',
          model: 'claude-sonnet-4-5',
          content: [{ type: 'tool_use', id: 't1', name: 'Read', input: { file_path: '.env' } }],
          stop_reason: 'tool_use',
          usage: { input_tokens: 1, output_tokens: 1 },
        },
      }) +
      line({
        parentUuid: 'a1',
        type: 'user',
        uuid: 'r1',
        message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'SECRET=abc' }] },
      }),
  );
  const lake = tempDir('romp-redact-lake-');
  const run = await runCli([
    'export',
    '--format',
    'ndjson',
    '--out',
    lake,
    '--projects',
    projects,
    '--machine',
    'm',
    '--redact',
    '--json',
  ]);
  assert.equal(run.code, 0, run.err);
  assert.deepEqual(JSON.parse(run.out).redactions, { '@secretlint/secretlint-rule-github': 1, 'romp/env-file': 1 });
  const folder = join(lake, 'blocks', 'machine=m', 'date=2026-03-01');
  const [part] = readdirSync(folder);
  const blocks = gunzipSync(readFileSync(join(folder, part as string)))
    .toString()
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { key: string; text: string });
  assert.deepEqual(
    blocks.map((b) => [b.key, b.text]),
    [
      ['u1:0', 'token [redacted:@secretlint/secretlint-rule-github]'],
      ['a1:0', '{"file_path":".env"}'],
      ['r1:0', '[redacted: 10 chars]'],
    ],
  );
});
