/**
 * The library only reads the transcripts it is given: every file it opens is opened read-only, and
 * nothing is written, renamed, locked or removed. And a file that grows while it is parsed gives a
 * consistent prefix: whole lines only, the records of the first N lines.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { constants as fsConstants, writeFileSync } from 'node:fs';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { test } from 'node:test';
import { readTranscript } from '../src/read/read-transcript.ts';
import { parseSession } from '../src/session/parse-session.ts';
import { EXAMPLE_SESSION } from '../src/cli/load-session.ts';
import { writeJsonl } from './helpers/transcript.ts';

const require = createRequire(import.meta.url);
const WRITES = [
  'writeFile',
  'appendFile',
  'rename',
  'unlink',
  'rm',
  'mkdir',
  'truncate',
  'copyFile',
  'symlink',
  'link',
  'chmod',
  'utimes',
];

test('parsing opens files read-only and writes, renames or removes nothing', async () => {
  const fs = require('node:fs') as Record<string, unknown> & { promises: Record<string, unknown> };
  const saved = new Map<string, unknown>();
  const flags: unknown[] = [];
  const touched: string[] = [];
  const patch = (target: Record<string, unknown>, key: string, replacement: unknown): void => {
    saved.set(`${target === fs ? 'fs' : 'promises'}.${key}`, target[key]);
    target[key] = replacement;
  };
  const realOpen = fs.promises['open'] as (...args: unknown[]) => Promise<unknown>;
  patch(fs.promises, 'open', (path: unknown, flag: unknown, ...rest: unknown[]) => {
    flags.push(flag ?? 'r');
    return realOpen(path, flag, ...rest);
  });
  // transcripts are read by system calls on the calling thread (`readChunks`)
  const realOpenSync = fs['openSync'] as (...args: unknown[]) => number;
  patch(fs, 'openSync', (path: unknown, flag: unknown, ...rest: unknown[]) => {
    flags.push(flag ?? 'r');
    return realOpenSync(path, flag, ...rest);
  });
  for (const name of WRITES) {
    for (const target of [fs, fs.promises]) {
      if (typeof target[name] === 'function')
        patch(target, name, (...args: unknown[]) => {
          touched.push(`${name}(${String(args[0])})`);
          throw new Error(`write attempted: ${name}`);
        });
      if (typeof target[`${name}Sync`] === 'function')
        patch(target, `${name}Sync`, () => {
          touched.push(`${name}Sync`);
          throw new Error(`write attempted: ${name}Sync`);
        });
    }
  }
  syncBuiltinESMExports();
  try {
    const result = await parseSession([EXAMPLE_SESSION], { view: 'context' });
    assert.equal(result.session.turns.length, 1);
    await parseSession([EXAMPLE_SESSION]);
  } finally {
    for (const [key, value] of saved) {
      const [where, name] = key.split('.') as [string, string];
      (where === 'fs' ? fs : fs.promises)[name] = value;
    }
    syncBuiltinESMExports();
  }
  assert.deepEqual(touched, []);
  assert.ok(flags.length >= 2);
  // 'r', or numeric flags that only add O_NONBLOCK to O_RDONLY (a FIFO is never waited on)
  const { O_WRONLY, O_RDWR, O_CREAT, O_TRUNC, O_APPEND } = fsConstants;
  const readOnly = (f: unknown): boolean =>
    f === 'r' || (typeof f === 'number' && (f & (O_WRONLY | O_RDWR | O_CREAT | O_TRUNC | O_APPEND)) === 0);
  assert.ok(flags.every(readOnly), `flags: ${flags.join(', ')}`);
});

test('a file appended to while it is read gives the records of a prefix of its lines', async () => {
  const path = writeJsonl([]);
  writeFileSync(path, '');
  const line = (i: number): string =>
    `${JSON.stringify({ type: 'user', uuid: `u${i}`, parentUuid: i === 0 ? null : `u${i - 1}`, timestamp: '2026-03-01T10:00:00.000Z', message: { role: 'user', content: 'x'.repeat(500) } })}\n`;
  const script = `const fs = require('fs'); const fd = fs.openSync(process.argv[1], 'a'); for (let i = 0; i < 4000; i++) { const s = ${JSON.stringify(line(0))}.replace('"u0"', '"u' + i + '"').replace('"parentUuid":null', i === 0 ? '"parentUuid":null' : '"parentUuid":"u' + (i - 1) + '"'); const half = s.length >> 1; fs.writeSync(fd, s.slice(0, half)); fs.writeSync(fd, s.slice(half)); }`;
  const writer = spawn(process.execPath, ['-e', script, path]);
  const reads = [];
  while (writer.exitCode === null) {
    reads.push(await readTranscript(path, { chunkBytes: 4096 }));
    await new Promise((r) => setTimeout(r, 5));
  }
  for (const read of reads) {
    const uuids = read.records.map((r) => r.record['uuid']);
    assert.deepEqual(
      uuids,
      uuids.map((_, i) => `u${i}`),
      'records are not the first N lines',
    );
    // only the last line may be cut (a write caught halfway); it is reported, never taken as a record
    assert.ok(
      read.diagnostics.every((d) => d.code === 'INVALID_JSON' && d.line === read.lines),
      JSON.stringify([read.lines, read.diagnostics]),
    );
  }
  assert.ok(reads.length > 1);
});
