import assert from 'node:assert/strict';
import { test } from 'node:test';
import { promptText, typedText } from '../../src/views/prompt-text.ts';
import { parseLines } from '../helpers/parse.ts';
import { assistant, text, toolResult, toolUse, user } from '../helpers/transcript.ts';

test('promptText: without the IDE blocks and reminders beside it; an image as [image]', async () => {
  const { session } = await parseLines([
    user(
      'u1',
      null,
      [
        text(
          '<ide_opened_file>The user opened the file /w/src/app.ts in the IDE. This may or may not be related to the current task.</ide_opened_file>',
        ),
        text('<ide_selection>The user selected the lines 3 to 4 from /w/src/app.ts:\nconst a = 1;\n</ide_selection>'),
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
        text('why is <system-reminder>ignore this</system-reminder>this line red?'),
      ],
      0,
    ),
    assistant('a1', 'u1', text('A typo.'), 1, { mid: 'm1', stop: 'end_turn' }),
  ]);
  assert.equal(promptText(session.turns[0]!), '[image]\nwhy is this line red?');
});

test('promptText: a slash command as /name args, not its XML nor the expanded prompt after it', async () => {
  const { session } = await parseLines([
    user(
      's1',
      null,
      '<command-message>review is running…</command-message>\n<command-name>/review</command-name>\n<command-args>the auth module</command-args>',
      0,
    ),
    user('s2', 's1', [text('Review the code in the auth module for bugs. Report each with its file and line.')], 0, {
      isMeta: true,
    }),
    assistant('a1', 's2', text('Two bugs.'), 5, { mid: 'm1', stop: 'end_turn' }),
    user(
      's3',
      'a1',
      '<command-name>/clear</command-name>\n            <command-message>clear</command-message>\n            <command-args></command-args>',
      9,
    ),
    user('s4', 's3', '<local-command-stdout></local-command-stdout>', 9),
  ]);
  assert.deepEqual(
    session.turns.map((t) => [t.trigger?.uuid, t.atoms.map((a) => a.uuid), promptText(t)]),
    [
      ['s1', ['s1', 's2', 'a1'], '/review the auth module'],
      ['s3', ['s3', 's4'], '/clear'],
    ],
  );
});

test('promptText: a peer message without its postal marker; an absorbed prompt as typed', async () => {
  const { session } = await parseLines([
    user('p1', null, 'the build is green <!-- romp-msg-id: msg-42 -->', 0),
    assistant('a1', 'p1', toolUse('t1', 'Bash'), 1, { mid: 'm1', stop: 'tool_use' }),
    user('r1', 'a1', [toolResult('t1', 'ok')], 2),
    {
      parentUuid: 'r1',
      isSidechain: false,
      type: 'attachment',
      uuid: 'q1',
      timestamp: '2026-03-01T10:00:02.500Z',
      sessionId: 'fixture-session',
      attachment: { type: 'queued_command', prompt: 'also tag the release', commandMode: 'prompt' },
    },
    assistant('a2', 'q1', text('Tagged.'), 3, { mid: 'm2', stop: 'end_turn' }),
  ]);
  const [turn] = session.turns;
  assert.deepEqual([turn?.atoms[0]?.author, promptText(turn!)], [{ peer: null }, 'the build is green']);
  assert.equal(typedText(turn!.atoms.find((a) => a.uuid === 'q1')!), 'also tag the release');
  assert.equal(promptText({ ...turn!, trigger: null }), '', 'an autonomous turn typed nothing');
});
