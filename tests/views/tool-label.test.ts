import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TOOL_LABEL_MAX, toolLabel } from '../../src/views/tool-label.ts';

test('toolLabel tells each built-in tool by its key input', () => {
  const cases: Array<[string, unknown, string]> = [
    ['Bash', { command: 'npm   test\n  -- --watch', description: 'run tests' }, 'Bash: npm test -- --watch'],
    ['Read', { file_path: 'src/a.ts', offset: 10, limit: 31 }, 'Read: src/a.ts:10-40'],
    ['Read', { file_path: 'src/a.ts' }, 'Read: src/a.ts'],
    ['Read', { file_path: 'src/a.ts', offset: 5 }, 'Read: src/a.ts:5-'],
    ['Edit', { file_path: 'src/x.ts', old_string: 'a', new_string: 'a\nb\nc' }, 'Edit: src/x.ts +3 −1'],
    [
      'MultiEdit',
      {
        file_path: 'src/x.ts',
        edits: [{ old_string: 'a\nb', new_string: 'c' }, { old_string: 'd', new_string: '' }, 'junk'],
      },
      'MultiEdit: src/x.ts +1 −3',
    ],
    ['Write', { file_path: 'notes.md', content: 'one\ntwo\n' }, 'Write: notes.md (3 lines)'],
    ['Grep', { pattern: 'TODO', path: 'src', glob: '*.ts' }, 'Grep: "TODO" in src (*.ts)'],
    ['Glob', { pattern: '**/*.ts' }, 'Glob: **/*.ts'],
    ['WebSearch', { query: 'node 20 sqlite' }, 'WebSearch: "node 20 sqlite"'],
    [
      'Task',
      { description: 'fix the parser', prompt: 'long…', subagent_type: 'general-purpose' },
      'Task: fix the parser (general-purpose)',
    ],
    ['Agent', { prompt: 'look around' }, 'Agent: look around'],
    ['TodoWrite', { todos: [{}, {}, {}] }, 'TodoWrite: 3 todos'],
    ['TodoWrite', { todos: [{}] }, 'TodoWrite: 1 todo'],
    ['AskUserQuestion', { questions: [{}] }, 'AskUserQuestion: 1 question'],
    ['mcp__github__create_issue', { owner: 'me', title: 'Bug' }, 'mcp__github__create_issue: me'],
    ['Bash', 'not an object', 'Bash'],
    ['Read', { file_path: 42 }, 'Read'],
    ['__proto__', { x: 'y' }, '__proto__: y'],
    ['constructor', {}, 'constructor'],
  ];
  for (const [name, input, label] of cases) assert.equal(toolLabel(name, input), label, name);
});

test('toolLabel cuts a long input to TOOL_LABEL_MAX characters with an ellipsis', () => {
  const label = toolLabel('Bash', { command: `echo ${'x'.repeat(500)}` });
  assert.equal(label.length, TOOL_LABEL_MAX);
  assert.equal(label.slice(0, 11), 'Bash: echo ');
  assert.equal(label.at(-1), '…');
});
