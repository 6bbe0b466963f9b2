import assert from 'node:assert/strict';
import { appendFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { sessionSubagents } from '../../src/discover/list-claude-sessions.ts';
import { tempDir } from '../helpers/temp-dir.ts';

/** A first line of Claude Code 2.0.x, written in session `sessionId`. */
const line = (sessionId: string): string =>
  `${JSON.stringify({ type: 'user', sessionId, uuid: `u-${sessionId}`, parentUuid: null, message: { role: 'user', content: 'x' } })}\n`;

test('sessionSubagents: flat agent files by their first line, seen again after the folder changes', async () => {
  const dir = tempDir('romp-flat-agents-');
  for (const id of ['s1', 's2']) writeFileSync(join(dir, `${id}.jsonl`), line(id));
  writeFileSync(join(dir, 'agent-a1.jsonl'), line('s1'));
  writeFileSync(join(dir, 'agent-a2.jsonl'), line('s2'));
  assert.deepEqual(await sessionSubagents(join(dir, 's1.jsonl')), [join(dir, 'agent-a1.jsonl')]);
  assert.deepEqual(await sessionSubagents(join(dir, 's2.jsonl')), [join(dir, 'agent-a2.jsonl')]);
  // a file added to the folder after it was read: found
  writeFileSync(join(dir, 'agent-a3.jsonl'), line('s1'));
  assert.deepEqual(await sessionSubagents(join(dir, 's1.jsonl')), [
    join(dir, 'agent-a1.jsonl'),
    join(dir, 'agent-a3.jsonl'),
  ]);
  // one created empty, its first line written later (the folder's times unchanged by the write): found then
  writeFileSync(join(dir, 'agent-a4.jsonl'), '');
  assert.deepEqual(await sessionSubagents(join(dir, 's2.jsonl')), [join(dir, 'agent-a2.jsonl')]);
  appendFileSync(join(dir, 'agent-a4.jsonl'), line('s2'));
  assert.deepEqual(await sessionSubagents(join(dir, 's2.jsonl')), [
    join(dir, 'agent-a2.jsonl'),
    join(dir, 'agent-a4.jsonl'),
  ]);
  // a renamed one is found by its new name, not its old
  renameSync(join(dir, 'agent-a2.jsonl'), join(dir, 'agent-b2.jsonl'));
  assert.deepEqual(await sessionSubagents(join(dir, 's2.jsonl')), [
    join(dir, 'agent-a4.jsonl'),
    join(dir, 'agent-b2.jsonl'),
  ]);
});
