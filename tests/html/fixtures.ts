/**
 * Small sessions, one per thing a page shows, in Claude Code's on-disk shapes (hand-written; no corpus
 * text), for the golden and browser tests of `romp html`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import {
  assistant,
  compactBoundary,
  SID,
  text,
  thinking,
  toolResult,
  toolUse,
  user,
  writeJsonl,
} from '../helpers/transcript.ts';

const end = { mid: 'm-end', stop: 'end_turn' };
const tools = (mid: string) => ({ mid, stop: 'tool_use' });
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/** Each feature's session: the paths of its files (the first is the session). */
export const FEATURES: Record<string, () => string[]> = {
  text: () => [
    writeJsonl([user('u1', null, 'fix the parser', 0), assistant('a1', 'u1', text('Plain words here.'), 3, end)]),
  ],
  markdown: () => [
    writeJsonl([
      user('u1', null, 'explain', 0),
      assistant(
        'a1',
        'u1',
        text(
          '## Plan\n\n**bold move** and `inline`\n\n```ts\nconst answer: number = 42;\n```\n\n[docs](https://example.com/docs) and [trap](javascript:alert(1)) and <b>raw</b>',
        ),
        2,
        end,
      ),
    ]),
  ],
  tools: () => [
    writeJsonl([
      user('u1', null, 'look around', 0),
      assistant('a1', 'u1', toolUse('t1', 'Bash', { command: 'npm test' }), 1, tools('m1')),
      assistant('a2', 'a1', toolUse('t2', 'Read', { file_path: 'src/a.ts', offset: 10, limit: 10 }), 1, tools('m1')),
      assistant('a3', 'a2', toolUse('t3', 'Grep', { pattern: 'TODO', path: 'src' }), 1, tools('m1')),
      user(
        'r1',
        'a3',
        [toolResult('t1', 'all 12 tests pass'), toolResult('t2', 'line ten'), toolResult('t3', 'no such dir', true)],
        2,
      ),
      assistant('a4', 'r1', toolUse('t4', 'mcp__fs__list', { folder: '/tmp/zone' }), 3, tools('m2')),
      user('r2', 'a4', [toolResult('t4', 'zone listing')], 4),
      assistant('a5', 'r2', text('Looked.'), 5, end),
    ]),
  ],
  diff: () => [
    writeJsonl([
      user('u1', null, 'edit both', 0),
      assistant(
        'a1',
        'u1',
        toolUse('t1', 'Edit', { file_path: 'src/x.ts', old_string: 'alpha\nbeta', new_string: 'alpha\ngamma' }),
        1,
        tools('m1'),
      ),
      user('r1', 'a1', [toolResult('t1', 'ok')], 2),
      assistant(
        'a2',
        'r1',
        toolUse('t2', 'Edit', { file_path: 'src/y.ts', old_string: 'one', new_string: 'two' }),
        3,
        tools('m2'),
      ),
      user('r2', 'a2', [toolResult('t2', 'ok')], 4, {
        toolUseResult: {
          filePath: 'src/y.ts',
          structuredPatch: [
            {
              oldStart: 7,
              oldLines: 2,
              newStart: 7,
              newLines: 2,
              lines: [' kept-by-claude', '-one', '+from-claude-code'],
            },
          ],
        },
      }),
      assistant('a3', 'r2', text('Edited.'), 5, end),
    ]),
  ],
  thinking: () => [
    writeJsonl([
      user('u1', null, 'think', 0),
      assistant('a1', 'u1', thinking('pondering deeply'), 1, { mid: 'm1' }),
      assistant('a2', 'a1', { type: 'thinking', thinking: '', signature: 'EqQBCkYIBxgC' }, 1, { mid: 'm1' }),
      assistant('a3', 'a2', text('Thought.'), 2, end),
    ]),
  ],
  image: () => [
    writeJsonl([
      user(
        'u1',
        null,
        [
          text('what is this'),
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
          { type: 'image', source: { type: 'base64', media_type: 'image/svg+xml', data: 'PHN2Zy8+' } },
        ],
        0,
      ),
      assistant('a1', 'u1', text('A pixel.'), 2, end),
    ]),
  ],
  subagent: () => {
    const path = writeJsonl([
      user('u1', null, 'delegate', 0),
      assistant(
        'a1',
        'u1',
        toolUse('t1', 'Task', {
          description: 'count files',
          prompt: 'count the files',
          subagent_type: 'general-purpose',
        }),
        1,
        tools('m1'),
      ),
      user('r1', 'a1', [toolResult('t1', 'there are 3')], 9),
      assistant('a2', 'r1', text('Three files.'), 10, end),
    ]);
    const agent = join(dirname(path), SID, 'subagents', 'agent-a7.jsonl');
    mkdirSync(dirname(agent), { recursive: true });
    const sub = { isSidechain: true, agentId: 'a7' };
    writeFileSync(
      agent,
      [
        user('s1', null, 'count the files', 2, sub),
        {
          ...assistant('s2', 's1', text('sub says three'), 8, end),
          ...sub,
          message: {
            ...(assistant('s2', 's1', text('sub says three'), 8, end)['message'] as object),
            model: 'claude-haiku-4-5',
          },
        },
      ]
        .map((l) => JSON.stringify(l))
        .join('\n') + '\n',
    );
    writeFileSync(agent.replace(/\.jsonl$/, '.meta.json'), JSON.stringify({ toolUseId: 't1' }));
    return [path];
  },
  compaction: () => [
    writeJsonl([
      user('u1', null, 'before the squeeze', 0),
      assistant('a1', 'u1', text('Old answer.'), 1, end),
      compactBoundary('b1', 'a1', 100, { trigger: 'manual', preTokens: 48210 }),
      user('s1', 'b1', 'This session is being continued from a previous conversation.', 100, {
        isCompactSummary: true,
      }),
      user('u2', 's1', 'after the squeeze', 120),
      assistant('a2', 'u2', text('New answer.'), 121, end),
    ]),
  ],
  rewind: () => [
    writeJsonl([
      user('u1', null, 'start', 0),
      assistant('a1', 'u1', text('Started.'), 1, end),
      user('u2', 'a1', 'first try', 10),
      assistant('a2', 'u2', text('Abandoned answer.'), 11, { mid: 'm2', stop: 'end_turn' }),
      user('u3', 'a1', 'second try', 20),
      assistant('a3', 'u3', text('Kept answer.'), 21, { mid: 'm3', stop: 'end_turn' }),
    ]),
  ],
  postal: () => [
    writeJsonl([
      user('u1', null, 'the build is green <!-- romp-msg-id: msg-42 -->', 0),
      assistant('a1', 'u1', text('Noted.'), 1, end),
    ]),
  ],
};

/**
 * A session whose every field a page shows holds an attack: script and comment breakouts, event
 * handlers, `javascript:` links, SVG `data:` images, U+2028, quotes in tool names and file paths. A
 * payload that runs sets `window.__xss`.
 * @returns the session's path
 */
export function xssSession(): string {
  const run = 'window.__xss=1';
  const payloads = [
    `</script><script>${run}</script>`,
    `<img src=x onerror="${run}">`,
    `<!-- <script>${run}</script> -->`,
    `[click](javascript:${run})`,
    `<svg onload="${run}"></svg>`,
    `line\u2028sep\u2029para </script`,
    `"><script>${run}</script>`,
    `' onmouseover='${run}`,
  ];
  const all = payloads.join('\n');
  return writeJsonl([
    { type: 'custom-title', customTitle: `</title><script>${run}</script>`, sessionId: SID },
    user('u1', null, all, 0),
    assistant('a1', 'u1', text(all), 1, { mid: 'm1' }),
    assistant('a2', 'a1', toolUse('t1', `Bash"><img src=x onerror=${run}>`, { command: all }), 1, tools('m1')),
    assistant(
      'a3',
      'a2',
      toolUse('t2', 'Edit', { file_path: `"><svg onload=${run}>.ts`, old_string: all, new_string: `${all}!` }),
      1,
      tools('m1'),
    ),
    user(
      'r1',
      'a3',
      [
        toolResult('t1', all),
        {
          type: 'tool_result',
          tool_use_id: 't2',
          content: [
            {
              type: 'image',
              source: {
                type: 'base64',
                media_type: 'image/svg+xml',
                data: Buffer.from(`<svg onload="${run}"/>`).toString('base64'),
              },
            },
          ],
        },
      ],
      2,
    ),
    assistant('a4', 'r1', thinking(all), 3, { mid: 'm2' }),
    assistant('a5', 'a4', text(`[x](javascript:${run}) <a href="javascript:${run}">y</a>`), 3, {
      mid: 'm2',
      stop: 'end_turn',
    }),
  ]);
}

/**
 * Three turns, the second closed by a compaction, and a rewound branch forking from the first answer:
 * a page split one turn per part (`partChars: 1`).
 * @returns the session's path
 */
export function threeTurns(): string {
  return writeJsonl([
    user('u1', null, 'first ask', 0),
    assistant('a1', 'u1', text('First answer.'), 1, { mid: 'm1', stop: 'end_turn' }),
    user('ux', 'a1', 'abandoned ask', 5),
    assistant('ax', 'ux', text('Abandoned.'), 6, { mid: 'mx', stop: 'end_turn' }),
    user('u2', 'a1', 'second ask', 10),
    assistant('a2', 'u2', text('Second answer.'), 11, { mid: 'm2', stop: 'end_turn' }),
    compactBoundary('b1', 'a2', 100, { trigger: 'manual', preTokens: 1000 }),
    user('s1', 'b1', 'This session is being continued from a previous conversation.', 100, { isCompactSummary: true }),
    user('u3', 's1', 'third ask', 120),
    assistant('a3', 'u3', text('Third answer.'), 121, { mid: 'm3', stop: 'end_turn' }),
  ]);
}
