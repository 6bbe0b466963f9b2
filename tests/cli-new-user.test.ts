import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Diagnostic } from '../src/diagnostics/diagnostic.ts';
import { cli } from '../src/cli/cli.ts';
import { writeDiagnostics } from '../src/cli/write-diagnostics.ts';
import { runCli } from './helpers/run-cli.ts';
import { tempDir } from './helpers/temp-dir.ts';
import { user } from './helpers/transcript.ts';

test('romp doctor takes a session id prefix, as romp show does, and reports that file', async () => {
  const config = tempDir('romp-doctor-id-');
  const path = join(config, 'projects', '-work-app', '5e551011-aaaa-4000-8000-000000000001.jsonl');
  mkdirSync(join(config, 'projects', '-work-app'), { recursive: true });
  const first = JSON.stringify(user('u1', null, 'hello', 0, { sessionId: '5e551011-aaaa-4000-8000-000000000001' }));
  writeFileSync(path, `${first}\n{"type":"user",broken\n`);
  const before = process.env['CLAUDE_CONFIG_DIR'];
  process.env['CLAUDE_CONFIG_DIR'] = config;
  try {
    const { code, out, err } = await runCli(['doctor', '5e55']);
    assert.equal(err, '');
    assert.equal(code, 1); // the broken line is lost
    assert.equal(out.split('\n')[0], path);
    assert.match(out, /diagnostics: INVALID_JSON×1\n/);
    const none = await runCli(['doctor', 'ffff0000']);
    assert.equal(none.code, 2);
    assert.match(none.err, /ffff0000: no such file, and no session id starting with it under /);
  } finally {
    if (before === undefined) delete process.env['CLAUDE_CONFIG_DIR'];
    else process.env['CLAUDE_CONFIG_DIR'] = before;
  }
});

test('past 20 diagnostics of standard input, the hint names no <stdin> file for romp doctor', () => {
  const of = (file: string): Diagnostic[] =>
    Array.from({ length: 21 }, (_, i) => ({
      code: 'INVALID_JSON',
      severity: 'error',
      message: 'line is not valid JSON',
      file,
      line: i + 1,
    }));
  const written = (file: string): string => {
    let err = '';
    writeDiagnostics({ stdout: { write: () => true }, stderr: { write: (s: string) => (err += s) } }, of(file));
    return err.split('\n').at(-2) ?? '';
  };
  assert.equal(written('<stdin>'), '… and 1 more; romp doctor FILE lists them all');
  assert.equal(written('/w/a.jsonl'), '… and 1 more; romp doctor /w/a.jsonl lists them all');
});

test('romp serve --port out of range or not a number is a usage error (exit 2), not a stack trace', async () => {
  for (const port of ['99999', 'abc', '-1']) {
    const { code, out, err } = await runCli(['serve', '--port', port]);
    assert.equal(code, 2, port);
    assert.equal(out, '');
    assert.match(err, new RegExp(`argument '${port}' is invalid\\. ${port} is not a port \\(0 to 65535\\)`));
  }
});

test('romp html -o and romp export -o into a folder not made yet make it, as export --out does', async () => {
  const dir = tempDir('romp-o-folder-');
  const file = join(dir, 's.jsonl');
  writeFileSync(file, `${JSON.stringify(user('u1', null, 'hello', 0, { sessionId: 's' }))}\n`);
  const page = join(dir, 'new', 'page.html');
  const html = await runCli(['html', file, '-o', page]);
  assert.equal(html.code, 0, html.err);
  assert.match(html.err, /^wrote .*page\.html: \d+ KB, /);
  assert.match(readFileSync(page, 'utf8'), /^<!doctype html>/i);
  const md = join(dir, 'other', 'deeper', 's.md');
  assert.equal((await runCli(['export', file, '--format', 'md', '-o', md])).code, 0);
  assert.match(readFileSync(md, 'utf8'), /hello/);
});

test('romp html --json names what -o wrote (session, turns, files and their bytes); without -o it is refused', async () => {
  const dir = tempDir('romp-html-json-');
  const file = join(dir, 's.jsonl');
  const sid = 'dddd0000-0000-4000-8000-000000000004';
  writeFileSync(file, `${JSON.stringify(user('u1', null, 'hello', 0, { sessionId: sid }))}\n`);
  const page = join(dir, 'p.html');
  const done = await runCli(['html', file, '-o', page, '--json']);
  assert.equal(done.code, 0, done.err);
  assert.deepEqual(JSON.parse(done.out), {
    rompUuid: sid,
    turns: 1,
    truncated: 0,
    files: [{ path: page, bytes: statSync(page).size }],
    diagnostics: [],
  });
  const refused = await runCli(['html', file, '--json']);
  assert.deepEqual([refused.code, refused.out], [2, '']);
  assert.match(refused.err, /^romp: --json needs -o FILE/);
});

test('romp serve --json prints one line with the URL and the port the system gave', async () => {
  const stop = new AbortController();
  let out = '';
  const io = { stdout: { write: (s: string) => (out += s) }, stderr: { write: () => true } };
  const running = cli(['serve', '--json', '--projects', tempDir('romp-serve-json-')], io, stop.signal);
  while (!out.includes('\n')) await new Promise((resolve) => setTimeout(resolve, 10));
  const line = JSON.parse(out) as { url: string; host: string; port: number };
  assert.equal(line.host, '127.0.0.1');
  assert.ok(line.port > 0);
  assert.equal(line.url, `http://127.0.0.1:${line.port}/`);
  assert.equal((await fetch(line.url)).status, 200);
  stop.abort();
  assert.equal(await running, 0);
});

test('register, resume, usage, cache, resume-check and watch refuse a file whose head holds no transcript line', async () => {
  const dir = tempDir('romp-register-check-');
  const home = join(dir, 'home');
  const services = join(dir, 'services');
  writeFileSync(services, 'ftp\t21/tcp\nssh\t22/tcp\n{"not":"a transcript line"}\n');
  const empty = join(dir, 'new.jsonl');
  writeFileSync(empty, '');
  const id = '0f8fad5b-d9cb-469f-a165-70867728950e';
  const refused = await runCli(['register', id, services, '--romp-home', home]);
  assert.deepEqual([refused.code, refused.out], [2, '']);
  assert.equal(
    refused.err,
    `romp: ${services}: not a Claude Code transcript (none of its first 3 lines is a transcript line; romp doctor ${services} says why)\n`,
  );
  assert.equal((await runCli(['register', id, empty, '--romp-home', home])).code, 0);
  const resume = await runCli(['resume', id, services, '--romp-home', home]);
  assert.equal(resume.code, 2);
  assert.match(resume.err, /not a Claude Code transcript/);
  // the commands whose readers skip what is not a transcript line would print an empty report: they refuse too
  for (const argv of [['usage'], ['usage', 'session'], ['cache'], ['resume-check'], ['watch']]) {
    const run = await runCli([...argv, services, '--romp-home', home]);
    assert.deepEqual([run.code, run.out], [2, ''], argv.join(' '));
    assert.equal(run.err, refused.err, argv.join(' '));
  }
  const one = join(dir, 'one-line');
  writeFileSync(one, 'hello\n');
  assert.equal(
    (await runCli(['usage', one, '--romp-home', home])).err,
    `romp: ${one}: not a Claude Code transcript (its one line is not a transcript line; romp doctor ${one} says why)\n`,
  );
  // an empty file is a session not written yet: usage counts nothing, and says so in a table
  assert.equal((await runCli(['usage', empty, '--romp-home', home])).code, 0);
});
