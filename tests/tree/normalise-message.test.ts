import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { isKnownBlock } from '../../src/model/is-known-block.ts';
import { toolResultText } from '../../src/model/tool-result-text.ts';
import type { MessageBlock } from '../../src/model/types.ts';
import { normaliseMessage } from '../../src/tree/normalise-message.ts';

test('a known block whose fields do not fit becomes (invalid), holding the block as read', () => {
  const bad = [
    { type: 'text', text: 42 },
    { type: 'text' },
    { type: 'thinking', thinking: 'x', signature: 7 },
    { type: 'redacted_thinking' },
    { type: 'tool_use', id: 'a', name: 'Bash' },
    { type: 'tool_use', id: 1, name: 'Bash', input: {} },
    { type: 'tool_result', tool_use_id: null, content: 'x' },
    { type: 'tool_result', tool_use_id: 't', is_error: 'yes' },
    { type: 'tool_result', tool_use_id: 't', content: 5 },
    { type: 'image', source: 'data' },
    { text: 'no type' },
  ];
  const message = normaliseMessage('user', { role: 'user', content: bad });
  assert.deepEqual(
    message.content,
    bad.map((value) => ({ type: '(invalid)', value })),
  );
  assert.ok(message.content.every((b) => !isKnownBlock(b)));
});

test('fitting blocks and unknown types pass through as read; the message is not copied', () => {
  const content = [
    { type: 'text', text: 'hi', citations: null },
    { type: 'thinking', thinking: 'hm', signature: 's' },
    { type: 'tool_use', id: 'a', name: 'Bash', input: { command: 'ls' } },
    { type: 'tool_result', tool_use_id: 'a', content: [{ type: 'text', text: 'out' }], is_error: false },
    { type: 'server_tool_use', anything: 1 },
  ];
  const raw = { role: 'assistant', content };
  const message = normaliseMessage('assistant', raw);
  assert.equal(message, raw);
  assert.deepEqual(message.content.map(isKnownBlock), [true, true, true, true, false]);
});

test("a tool_result's blocks are checked too; its text reads through toolResultText", () => {
  const message = normaliseMessage('user', {
    role: 'user',
    content: [
      {
        type: 'tool_result',
        tool_use_id: 'a',
        content: [
          { type: 'text', text: 'one' },
          { type: 'text', text: null },
          3,
          { type: 'image', source: { type: 'base64' } },
        ],
      },
    ],
  });
  const block = message.content[0] as MessageBlock;
  assert.ok(isKnownBlock(block) && block.type === 'tool_result');
  assert.deepEqual(block.content, [
    { type: 'text', text: 'one' },
    { type: '(invalid)', value: { type: 'text', text: null } },
    { type: '(invalid)', value: 3 },
    { type: 'image', source: { type: 'base64' } },
  ]);
  assert.equal(toolResultText(block.content), 'one\n[image]');
});

test('narrowing: a known block of type text has a string text, a user atom its message', () => {
  const [block] = normaliseMessage('user', { content: 'typed' }).content;
  assert.ok(block !== undefined && isKnownBlock(block) && block.type === 'text');
  const text: string = block.text;
  assert.equal(text, 'typed');
});

test('no runtime import of @anthropic-ai/sdk in the built library (types only)', () => {
  const dist = join(import.meta.dirname, '..', '..', 'src');
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.js')) files.push(path);
    }
  };
  walk(dist);
  assert.ok(files.length > 100);
  assert.deepEqual(
    files.filter((f) => readFileSync(f, 'utf8').includes('@anthropic-ai/sdk')),
    [],
  );
});
