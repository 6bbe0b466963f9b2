/**
 * The diagnostics catalogue is complete: every code the parser can emit is documented in
 * docs/diagnostics.md, and each has an input here that makes the parser emit it.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildHtmlPage } from '../src/html/build-html-page.ts';
import { openIndexForWrite } from '../src/index-db/open-index.ts';
import { SessionWatcher } from '../src/live/session-watcher.ts';
import { test } from 'node:test';
import { SEVERITY, type DiagnosticCode } from '../src/diagnostics/diagnostic.ts';
import { parseSession, type ParseOptions } from '../src/session/parse-session.ts';
import { countUsage } from '../src/usage/count-usage.ts';
import { assistant, compactBoundary, text, user, writeJsonl } from './helpers/transcript.ts';
import { tempDir } from './helpers/temp-dir.ts';

const end = { mid: 'm', stop: 'end_turn' };
const triggers: Record<DiagnosticCode, () => Promise<DiagnosticCode[]>> = {
  FILE_UNREADABLE: () => codes(['/nonexistent/romp.jsonl']),
  INVALID_JSON: () => lines(['{"type":"user"']),
  NOT_AN_OBJECT: () => lines(['[1,2,3]']),
  GLUED_RECORDS: () => lines(['{"type":"a"}{"type":"b"}']),
  NUL_BYTES: () => lines(['\u0000\u0000{"type":"a"}']),
  BLANK_LINE: () => lines(['{"type":"a"}', '', '{"type":"b"}']),
  INVALID_UTF8: async () => {
    const path = writeJsonl([]);
    writeFileSync(
      path,
      Buffer.concat([Buffer.from('{"type":"a","text":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}\n')]),
    );
    return codes([path]);
  },
  UTF16_FILE: async () => {
    const path = writeJsonl([]);
    writeFileSync(path, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('{"type":"a"}\n', 'utf16le')]));
    return codes([path]);
  },
  LINE_TOO_LONG: () => lines([`{"pad":"${'x'.repeat(2000)}"}`], { maxLineBytes: 1000 }),
  TOO_DEEP: () => lines([`${'['.repeat(40)}1${']'.repeat(40)}`.replace(/^/, '{"a":').concat('}')], { maxDepth: 10 }),
  NUMBER_REPLACED: () => lines(['{"type":"a","n":[-0,1e999],"m":{"x":-1e400}}']),
  TOO_MANY_FILES: () => codes([writeJsonl([]), writeJsonl([])], { maxFiles: 1 }),
  MISSING_UUID: () => lines([{ type: 'user', message: { role: 'user', content: 'x' } }]),
  DUPLICATE_UUID: () => lines([user('u', null, 'a', 0), user('u', null, 'b', 0)]),
  BAD_TIMESTAMP: () => lines([{ ...user('u', null, 'a', 0), timestamp: 'yesterday' }]),
  PHANTOM_PARENT: () => lines([user('u1', null, 'a', 0), user('u2', 'ghost', 'b', 1)]),
  HISTORY_GAP: () => lines([user('u2', 'ghost', 'b', 1)]),
  CYCLE: () => lines([user('x', 'y', 'a', 0), user('y', 'x', 'b', 1)]),
  COMPACT_PARENT_FALLBACK: () => lines([user('u1', null, 'a', 0), compactBoundary('b', 'ghost', 5)]),
  COMPACT_PARENT_MISSING: () => lines([compactBoundary('b', 'ghost', 5)]),
  PRESERVED_RELINK_SKIPPED: () =>
    lines(
      [
        user('u1', null, 'a', 0),
        compactBoundary('b', 'u1', 5, { preservedSegment: { headUuid: 'gone', anchorUuid: 's', tailUuid: 'u1' } }),
      ],
      { view: 'context' },
    ),
  LEAF_CHECKPOINT_UNRESOLVED: () => lines([user('u1', null, 'a', 0), { type: 'last-prompt', leafUuid: 'ghost' }]),
  SESSION_CLEARED: () => lines([user('u1', null, 'a', 0), { type: 'last-prompt', leafUuid: null, explicit: true }]),
  COMMAND_BRANCH: () =>
    lines([
      user('c', null, 'caveat', 0, { isMeta: true }),
      user('u1', 'c', 'question', 1),
      assistant('a1', 'u1', text('answer'), 2, end),
      user('b1', 'c', '<bash-input>ls</bash-input>', 3),
    ]),
  FSID_COLLISION: () => codes([writeJsonl([]), writeJsonl([])]),
  FILE_REPLACED: async () => {
    const path = writeJsonl([user('u1', null, 'a', 0), user('u2', 'u1', 'b', 1)]);
    const watcher = new SessionWatcher([path]);
    await watcher.update();
    writeFileSync(path, `${JSON.stringify(user('x', null, 'new', 0))}\n`);
    return (await watcher.update()).diagnostics.map((d) => d.code);
  },
  BAD_USAGE: async () => {
    const found: DiagnosticCode[] = [];
    await countUsage(
      [writeJsonl([assistant('a', null, text('x'), 0, { ...end, usage: { input_tokens: -1, output_tokens: 1 } })])],
      { onDiagnostic: (d) => found.push(d.code) },
    );
    return found;
  },
  BAD_REGISTRY_ENTRY: async () => {
    const home = tempDir('romp-home-');
    mkdirSync(join(home, 'sessions'));
    writeFileSync(join(home, 'sessions', 'x.json'), 'null');
    return codes([writeJsonl([user('u', null, 'a', 0)])], { rompHome: home });
  },
  HTML_TRUNCATED: async () => {
    const path = writeJsonl([
      user('u1', null, 'a', 0),
      assistant('a1', 'u1', { type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'x'.repeat(30_000) } }, 1, {
        mid: 'm',
        stop: 'tool_use',
      }),
    ]);
    return (await buildHtmlPage([path])).diagnostics.map((d) => d.code);
  },
  HTML_SPLIT: async () => {
    const path = writeJsonl([
      user('u1', null, 'a', 0),
      assistant('a1', 'u1', text('one'), 1, end),
      user('u2', 'a1', 'b', 2),
      assistant('a2', 'u2', text('two'), 3, { mid: 'm2', stop: 'end_turn' }),
    ]);
    return (await buildHtmlPage([path], { partChars: 1, partHref: (n) => `p${n}.html` })).diagnostics.map(
      (d) => d.code,
    );
  },
  INDEX_RECREATED: async () => {
    const path = join(tempDir('romp-index-'), 'index.db');
    writeFileSync(path, 'not a database, not at all, but long enough to be read as one page of one');
    const found: DiagnosticCode[] = [];
    openIndexForWrite(path, (d) => found.push(d.code)).close();
    return found;
  },
};

async function codes(files: string[], options: ParseOptions = {}): Promise<DiagnosticCode[]> {
  return (await parseSession(files, options)).diagnostics.map((d) => d.code);
}
async function lines(
  content: Array<Record<string, unknown> | string>,
  options: ParseOptions = {},
): Promise<DiagnosticCode[]> {
  return codes([writeJsonl(content)], options);
}

test('every diagnostic code has an input that triggers it', async () => {
  for (const [code, trigger] of Object.entries(triggers) as Array<[DiagnosticCode, () => Promise<DiagnosticCode[]>]>) {
    assert.ok((await trigger()).includes(code), `${code} not triggered`);
  }
  assert.deepEqual(Object.keys(triggers).sort(), Object.keys(SEVERITY).sort());
});

test('docs/diagnostics.md has a row for every code, with its severity', () => {
  const doc = readFileSync(new URL('../../docs/diagnostics.md', import.meta.url), 'utf8');
  for (const [code, severity] of Object.entries(SEVERITY)) {
    assert.match(
      doc,
      new RegExp(`^\\| \`${code}\` \\| ${severity} \\|`, 'm'),
      `${code} missing from docs/diagnostics.md`,
    );
  }
});
