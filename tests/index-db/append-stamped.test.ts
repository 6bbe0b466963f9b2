import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { test } from 'node:test';
import type { Database } from '../../src/index-db/database.ts';
import { stampFile, type FileStamp } from '../../src/index-db/file-stamp.ts';
import { refreshListings } from '../../src/index-db/listings.ts';
import { openIndexForWrite } from '../../src/index-db/open-index.ts';
import { refreshUsageFiles, storedParts } from '../../src/index-db/usage-files.ts';
import { corpusPresent, corpusTranscripts } from '../helpers/corpus.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { assistant, text, user } from '../helpers/transcript.ts';

const line = (l: object): string => `${JSON.stringify(l)}\n`;

/** A fresh index in a folder of its own, with a `files` row for each transcript (the stamped tables' list). */
function indexOf(paths: string[]): Database {
  const db = openIndexForWrite(join(tempDir('romp-append-stamped-db-'), 'index.db'), () => {});
  for (const path of paths)
    db.run(
      `INSERT INTO files (path, session_key, project, parent_path, dev, ino, size, mtime_ms, head_hash, tail_hash,
        bytes_read, parser_version, indexed_at) VALUES (?, ?, ?, NULL, 0, 0, 0, 0, '', '', 0, '', 0)`,
      [path, path, basename(dirname(path))],
    );
  return db;
}

/** Brings both stamped tables in step with the files, as a refresh does; then their rows by path. */
async function refreshed(db: Database, paths: string[]): Promise<Map<string, string>> {
  const stamps = new Map<string, FileStamp>();
  for (const path of paths) stamps.set(path, (await stampFile(path)) as FileStamp);
  await refreshListings(db, stamps);
  await refreshUsageFiles(db, stamps);
  const rows = new Map<string, string>();
  for (const r of db.all('SELECT path, listing_json FROM listings'))
    rows.set(`listing ${String(r['path'])}`, String(r['listing_json']));
  for (const r of db.all('SELECT path, usage_json FROM usage_files')) {
    const { groups, ...rest } = storedParts(db, String(r['path']), String(r['usage_json']));
    rows.set(`usage ${String(r['path'])}`, JSON.stringify({ groups: [...groups], ...rest }));
  }
  return rows;
}

test('an append is read from where the usage row and the listing stopped: the bytes before are not read again', async () => {
  const project = join(tempDir('romp-append-stamped-'), '-work-app');
  mkdirSync(project);
  const path = join(project, 's1.jsonl');
  const s1 = { sessionId: 's1' };
  const response = (uuid: string, parent: string, mid: string, sec: number, out: number): string =>
    line(
      assistant(uuid, parent, text('Done.'), sec, {
        mid,
        stop: 'end_turn',
        usage: { input_tokens: 10, output_tokens: out },
        extra: s1,
      }),
    );
  const head = [
    line(user('u1', null, 'first prompt', 1, s1)),
    // a tool result before m1's response and one after: it is neither in the first 4 KiB nor in the last 64 bytes
    line(user('r1', 'u1', [{ type: 'tool_result', tool_use_id: 't0', content: 'x'.repeat(5000) }], 2, s1)),
    response('a1', 'r1', 'm1', 3, 5),
    line(user('r2', 'a1', [{ type: 'tool_result', tool_use_id: 't1', content: 'y' }], 4, s1)),
  ].join('');
  writeFileSync(path, head);
  const db = indexOf([path]);
  await refreshed(db, [path]);
  // m1's output, changed in place to the same size: a read of the whole file would count 9; the stamps cannot see it
  // (same size, same first 4 KiB, same last 64 bytes)
  // and a prompt line put in the middle of r1's output, to the same size: a read of the whole file would count it
  const at = head.indexOf('x'.repeat(5000)) + 4500;
  const prompt = `\n${line(user('u2', 'u1', 'a prompt put in', 2, s1))}`;
  const changed = head.slice(0, at) + prompt + head.slice(at + prompt.length);
  writeFileSync(path, changed.replace('"output_tokens":5', '"output_tokens":9'));
  appendFileSync(path, line(user('u4', 'r2', 'third prompt', 5, s1)) + response('a2', 'u4', 'm2', 6, 7));
  const second = await refreshed(db, [path]);
  const usage = JSON.parse(second.get(`usage ${path}`) as string) as {
    groups: Array<[string, { usage: { output_tokens: number } }]>;
    next: number;
  };
  // 5 as it was read before: the changed line was not read again; m2 read from line 5 on
  assert.deepEqual(
    usage.groups.map(([, r]) => r.usage.output_tokens),
    [5, 7],
  );
  assert.equal(usage.next, 7);
  // stored as two parts: the first read's m1, then the append's m2 alone (the part before not written again)
  assert.deepEqual(
    db
      .all('SELECT part, usage_json FROM usage_parts WHERE path = ? ORDER BY part', [path])
      .map((r) => [r['part'], (JSON.parse(String(r['usage_json'])) as typeof usage).groups.map(([k]) => k)]),
    [
      [0, ['m1\u0000req_m1']],
      [1, ['m2\u0000req_m2']],
    ],
  );
  // the listing counted the two prompts and six lines it read, not the one put in before
  const listing = JSON.parse(second.get(`listing ${path}`) as string) as { prompts: number; lines: number };
  assert.deepEqual([listing.prompts, listing.lines], [2, 6]);
  // a fresh index reads the whole file: 9, three prompts, r1 cut in three lines
  const whole = await refreshed(indexOf([path]), [path]);
  const fresh = JSON.parse(whole.get(`usage ${path}`) as string) as typeof usage;
  assert.deepEqual(
    fresh.groups.map(([, r]) => r.usage.output_tokens),
    [9, 7],
  );
  const freshListing = JSON.parse(whole.get(`listing ${path}`) as string) as typeof listing;
  assert.deepEqual([freshListing.prompts, freshListing.lines], [3, 8]);
});

test(
  'corpus files cut at line boundaries and appended in two steps: the rows equal a fresh read',
  {
    skip: !corpusPresent,
  },
  async () => {
    const root = tempDir('romp-append-stamped-corpus-');
    let seed = 17;
    const random = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const files = corpusTranscripts();
    const paths: string[] = [];
    const rests: Array<[Buffer, Buffer]> = [];
    for (const [i, file] of files.entries()) {
      const bytes = readFileSync(file);
      const ends: number[] = [];
      for (let nl = bytes.indexOf(10); nl !== -1; nl = bytes.indexOf(10, nl + 1)) ends.push(nl + 1);
      if (ends.length < 3) continue;
      const [a, b] = [random(ends.length - 1), random(ends.length - 1)].sort((x, y) => x - y) as [number, number];
      const [cut1, cut2] = [ends[a] as number, ends[Math.max(a + 1, b)] as number];
      const dir = join(root, `-p${i}`);
      mkdirSync(dir);
      const path = join(dir, basename(file));
      writeFileSync(path, bytes.subarray(0, cut1));
      paths.push(path);
      rests.push([bytes.subarray(cut1, cut2), bytes.subarray(cut2)]);
    }
    assert.ok(paths.length > 50, `${paths.length} files cut`);
    const db = indexOf(paths);
    await refreshed(db, paths);
    for (const step of [0, 1]) {
      for (const [i, path] of paths.entries()) appendFileSync(path, (rests[i] as [Buffer, Buffer])[step] as Buffer);
      const grown = await refreshed(db, paths);
      const fresh = await refreshed(indexOf(paths), paths);
      assert.equal(grown.size, fresh.size);
      for (const [key, value] of fresh) assert.equal(grown.get(key), value, key);
    }
  },
);
