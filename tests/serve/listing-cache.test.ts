/** The viewer's listing memory: a file read once per stamp, a change read at once, a flat agent keeps its parent. */
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileListing, listClaudeSessions } from '../../src/discover/list-claude-sessions.ts';
import { listingCache } from '../../src/serve/listing-cache.ts';

const line = (o: Record<string, unknown>): string => `${JSON.stringify(o)}\n`;
const prompt = (uuid: string, sessionId: string, text: string, extra: Record<string, unknown> = {}): string =>
  line({
    type: 'user',
    uuid,
    parentUuid: null,
    sessionId,
    cwd: '/w/kiwi',
    timestamp: '2026-03-04T05:06:07.000Z',
    message: { role: 'user', content: text },
    ...extra,
  });

test('listingCache: a second listing reads no file; an append is read at once; a vanished file is forgotten', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'romp-listings-'));
  const project = join(dir, '-w-kiwi');
  mkdirSync(project);
  const main = join(project, '11111111-1111-4111-8111-111111111111.jsonl');
  writeFileSync(main, prompt('u1', '11111111-1111-4111-8111-111111111111', 'plant the quince'));
  // a 2.0.x flat agent file: its parent is in its own lines (sessionId), which the listed row drops
  const agent = join(project, 'agent-0a1b2c3d.jsonl');
  writeFileSync(
    agent,
    prompt('a1', '11111111-1111-4111-8111-111111111111', 'water it', { isSidechain: true, agentId: '0a1b2c3d' }),
  );
  const reads: string[] = [];
  const cache = listingCache(async (path) => {
    reads.push(path);
    return fileListing(path);
  });
  const list = async () => {
    const all = await listClaudeSessions({ projectsDir: dir, stored: cache.stored });
    cache.forget(all.flatMap((s) => [s.path, ...s.subagents]));
    return all;
  };
  const first = await list();
  assert.deepEqual(reads.sort(), [agent, main].sort());
  assert.equal(first.length, 1);
  assert.deepEqual(first[0]?.subagents, [agent]);
  assert.equal(first[0]?.prompts, 1);

  reads.length = 0;
  const second = await list();
  assert.deepEqual(reads, []);
  assert.deepEqual(second, first);

  appendFileSync(main, prompt('u2', '11111111-1111-4111-8111-111111111111', 'prune the quince', { parentUuid: 'u1' }));
  reads.length = 0;
  const third = await list();
  assert.deepEqual(reads, [main]);
  assert.equal(third[0]?.prompts, 2);
  assert.deepEqual(third[0]?.subagents, [agent]);
});

test('listingCache: a failed read is not kept, and forget drops what is no longer listed', async () => {
  let calls = 0;
  const dir = mkdtempSync(join(tmpdir(), 'romp-listings-'));
  const path = join(dir, 'x.jsonl');
  writeFileSync(path, 'not json\n');
  const cache = listingCache(() => {
    calls += 1;
    return Promise.reject(new Error(`unreadable ${calls}`));
  });
  await assert.rejects(cache.stored(path), /unreadable 1/);
  await assert.rejects(cache.stored(path), /unreadable 2/);
  const ok = listingCache(async (p) => {
    calls += 1;
    return { ...(await fileListing(join(dir, 'y.jsonl'))), cwd: p };
  });
  writeFileSync(join(dir, 'y.jsonl'), prompt('u1', 's', 'fig'));
  calls = 0;
  await ok.stored(path);
  await ok.stored(path);
  assert.equal(calls, 1);
  ok.forget([]);
  await ok.stored(path);
  assert.equal(calls, 2);
});
