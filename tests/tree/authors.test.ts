import assert from 'node:assert/strict';
import { test } from 'node:test';
import { deriveAuthor } from '../../src/tree/derive-author.ts';
import type { Author, ContentBlock } from '../../src/model/types.ts';

const none = (): null => null;
const author = (record: Record<string, unknown>, text: string): Author | undefined =>
  deriveAuthor(record, [{ type: 'text', text }] as ContentBlock[], none, 'human');

test('promptSource decides where it is written (2.1.200+)', () => {
  assert.equal(author({ promptSource: 'typed' }, 'hi'), 'human');
  assert.equal(author({ promptSource: 'queued' }, 'hi'), 'human');
  assert.equal(author({ promptSource: 'suggestion_accepted' }, 'hi'), 'human');
  assert.equal(author({ promptSource: 'sdk' }, 'hi'), 'sdk');
  assert.equal(author({ promptSource: 'system', isMeta: true }, 'hi'), 'system');
});

test('a tool_result-only user line has no author', () => {
  const content = [{ type: 'tool_result', tool_use_id: 't', content: 'x' }] as ContentBlock[];
  assert.equal(deriveAuthor({ promptSource: 'typed' }, content, none, 'human'), undefined);
});

test('the postal marker makes a peer, whitespace tolerant, even on a Stop-hook isMeta line', () => {
  const lookup = (id: string): string | null => (id === 'm-42' ? 'romp-sender' : null);
  const content = [
    { type: 'text', text: 'Stop hook feedback:\nhello <!--romp-msg-id:   m-42   --> bye' },
  ] as ContentBlock[];
  assert.deepEqual(deriveAuthor({ isMeta: true }, content, lookup, 'human'), { peer: 'romp-sender' });
  assert.deepEqual(author({}, '<!-- romp-msg-id: unknown-id -->'), { peer: null });
  assert.equal(author({ isMeta: true }, 'Stop hook feedback:\nplain error'), 'system');
});

test('older files: flags, origin and harness text decide', () => {
  assert.equal(author({ isCompactSummary: true }, 'This session is being continued'), 'system');
  assert.equal(author({ isMeta: true }, 'Base directory for this skill'), 'system');
  assert.equal(author({ origin: { kind: 'task-notification' } }, '<task-notification>'), 'system');
  assert.equal(author({ origin: { kind: 'human' } }, 'hi'), 'human');
  assert.equal(author({}, '<task-notification><task-id>b1</task-id></task-notification>'), 'system');
  assert.equal(author({}, '<local-command-stdout>Compacted</local-command-stdout>'), 'system');
  assert.equal(author({}, '[Request interrupted by user for tool use]'), 'system');
  assert.equal(author({}, 'Stop hook feedback:\n- lint failed'), 'system');
  assert.equal(author({ isSidechain: true }, 'Explore the repo'), 'system');
  assert.equal(author({ entrypoint: 'sdk-ts' }, 'Summarise'), 'sdk');
  assert.equal(author({ entrypoint: 'cli' }, '<command-name>/model</command-name>'), 'human');
  assert.equal(author({}, 'fix the bug'), 'human');
});

test('promptSource "constructor" or "__proto__" is no source romp knows: the rules after it decide', () => {
  assert.equal(author({ promptSource: 'constructor' }, 'hi'), 'human');
  assert.equal(author({ promptSource: '__proto__', isMeta: true }, 'hi'), 'system');
});
