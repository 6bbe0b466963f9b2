import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cli } from '../src/cli/cli.ts';
import { assistant, text, user } from './helpers/transcript.ts';

/** The CLI run in-process on `stdin` as standard input. */
async function run(argv: string[], stdin: string): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io = {
    stdout: { write: (s: string) => (out += s) },
    stderr: { write: (s: string) => (err += s) },
    stdin: [Buffer.from(stdin)],
  };
  const code = await cli(argv, io);
  return { code, out, err };
}

test('standard input is <stdin> in errors and diagnostics, never the temporary copy romp reads it from', async () => {
  const refused = await run(['show', '-'], 'hello\n');
  assert.deepEqual(refused, {
    code: 2,
    out: '',
    err: 'romp: <stdin>: not a Claude Code transcript (0 of 1 line readable; romp doctor - says why)\n',
  });
  const doctor = await run(['doctor', '-'], 'hello\n');
  assert.equal(doctor.code, 1);
  assert.deepEqual(
    doctor.out.split('\n').filter((l) => /stdin/.test(l)),
    ['<stdin>', '  <stdin>:1: error INVALID_JSON line is not valid JSON (5 chars: "hello")'],
  );
  // a transcript with one broken line: read, and the diagnostic on stderr names <stdin>:3
  const lines = [user('u1', null, 'hi', 0), assistant('a1', 'u1', text('hello'), 1, { mid: 'm1', stop: 'end_turn' })];
  const session = `${lines.map((l) => JSON.stringify(l)).join('\n')}\n{broken\n`;
  const shown = await run(['turns', '-', '--timezone', 'UTC'], session);
  assert.equal(shown.code, 0);
  assert.equal(shown.err, '<stdin>:3: error INVALID_JSON line is not valid JSON (7 chars: "{broken")\n');
  assert.doesNotMatch(shown.out + doctor.out, /romp-stdin-/);
});
