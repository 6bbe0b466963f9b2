import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { cli } from '../src/cli/cli.ts';
import { safeText } from '../src/cli/safe-text.ts';
import type { Session } from '../src/model/types.ts';
import { assistant, system, text, toolResult, toolUse, user } from './helpers/transcript.ts';
import { tempDir } from './helpers/temp-dir.ts';

// what a crafted transcript would use: set the window title (OSC 0 … BEL), clear the screen (CSI 2J),
// plant an OSC 8 hyperlink, a one-byte C1 CSI, a right-to-left override, CR and BS to overwrite a line, DEL
const TITLE = '\u001b]0;pwned\u0007';
const CLEAR = '\u001b[2J';
const LINK = '\u001b]8;;https://evil.example/\u001b\\click\u001b]8;;\u001b\\';
const HOSTILE = `${TITLE}${CLEAR}${LINK}\u009b31m\u202egnp.exe\r\b\u007f`;
const RAW = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

async function run(
  argv: string[],
  signal?: AbortSignal,
  stdin?: string,
): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io = {
    stdout: { write: (s: string) => (out += s) },
    stderr: { write: (s: string) => (err += s) },
    ...(stdin === undefined ? {} : { stdin: [Buffer.from(stdin)] }),
  };
  const code = await cli(argv, io, signal);
  return { code, out, err };
}

/** One session whose title, cwd, prompt, tool name, model, text and a broken line carry the hostile text. */
function hostileProjects(): { projects: string; file: string } {
  const projects = tempDir('romp-hostile-');
  const dir = join(projects, '-work-hostile');
  mkdirSync(dir);
  const file = join(dir, 'hostile-session.jsonl');
  const lines = [
    user('u1', null, `run ${HOSTILE}`, 0, { cwd: `/work/${HOSTILE}`, sessionId: 'hostile-session' }),
    assistant('a1', 'u1', toolUse('toolu_1', `Bash${HOSTILE}`, { command: HOSTILE }), 1, {
      mid: 'm1',
      stop: 'tool_use',
      extra: { sessionId: 'hostile-session' },
    }),
    user('r1', 'a1', [toolResult('toolu_1', HOSTILE, true)], 2, { sessionId: 'hostile-session' }),
    {
      ...assistant('a2', 'r1', text(HOSTILE), 3, {
        mid: 'm2',
        stop: 'end_turn',
        extra: { sessionId: 'hostile-session' },
      }),
      message: {
        id: 'm2',
        role: 'assistant',
        model: `claude-${HOSTILE}`,
        content: [text(HOSTILE)],
        stop_reason: 'end_turn',
        usage: { input_tokens: 3, output_tokens: 4 },
      },
    },
    system('s1', 'a2', 'turn_duration', 4, { durationMs: 4000, sessionId: 'hostile-session' }),
    { type: 'custom-title', customTitle: HOSTILE, sessionId: 'hostile-session' },
  ];
  writeFileSync(file, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n{"broken ${HOSTILE}\n`);
  return { projects, file };
}

test('safeText escapes C0, DEL, C1 and bidi controls and keeps everything else', () => {
  assert.equal(
    safeText(`a${TITLE}b\u009b\u202e\u2066\u007f\tü→😀`),
    'a\\x1b]0;pwned\\x07b\\u009b\\u202e\\u2066\\u007f\\x09ü→😀',
  );
  // the invisible marks escaped; the joiners of an emoji sequence and of Persian text kept
  assert.equal(
    safeText('a\u200fb\u200ec\u061cd\u200be\u2028f\u2029g\ufeffh 👨\u200d👩 می\u200cخواهم'),
    'a\\u200fb\\u200ec\\u061cd\\u200be\\u2028f\\u2029g\\ufeffh 👨\u200d👩 می\u200cخواهم',
  );
  assert.equal(safeText('one\ntwo\r'), 'one\\x0atwo\\x0d');
  assert.equal(safeText('one\ntwo\r', { keepNewlines: true }), 'one\ntwo\\x0d');
  // the \u form of DEL, C1 and bidi is a JSON escape: JSON output stays exact
  const json = JSON.stringify({ s: HOSTILE });
  assert.equal((JSON.parse(safeText(json, { keepNewlines: true })) as { s: string }).s, HOSTILE);
});

test('a hostile transcript through every command: no raw control character on stdout or stderr', async () => {
  const { projects, file } = hostileProjects();
  const home = tempDir('romp-hostile-home-');
  const stream = [
    { type: 'system', subtype: 'init', session_id: 'S', cwd: `/w/${HOSTILE}`, model: HOSTILE },
    { type: 'user', uuid: 'p1', session_id: 'S', message: { role: 'user', content: HOSTILE } },
    {
      type: 'assistant',
      uuid: 'x1',
      session_id: 'S',
      parent_tool_use_id: null,
      message: { id: 'm1', role: 'assistant', content: [toolUse('t1', HOSTILE)] },
    },
    { type: 'result', subtype: HOSTILE, uuid: 'r1', session_id: 'S', num_turns: 1, is_error: false },
  ]
    .map((l) => JSON.stringify(l))
    .join('\n');
  const runs: Array<[string, { code: number; out: string; err: string }]> = [];
  for (const argv of [
    ['show', file],
    ['turns', file],
    ['segments', file],
    ['tools', file],
    ['usage', file, '--timezone', 'UTC'],
    ['usage', '--projects', projects, '--timezone', 'UTC'],
    ['doctor', file],
    ['ls', '--projects', projects],
    ['register', 'H1', file, '--name', HOSTILE, '--dir', HOSTILE, '--romp-home', home],
    ['sessions', '--romp-home', home],
    ['show', '--session', 'H1', '--romp-home', home],
  ]) {
    runs.push([argv.join(' '), await run(argv)]);
  }
  runs.push(['stream', await run(['stream'], undefined, stream)]);
  const controller = new AbortController();
  const watching = run(['watch', file, '--poll'], controller.signal);
  await new Promise((resolve) => setTimeout(resolve, 300));
  controller.abort();
  runs.push(['watch', await watching]);
  for (const [argv, { out, err }] of runs) {
    assert.equal(RAW.exec(out)?.index, undefined, `${argv}: raw control character on stdout`);
    assert.equal(RAW.exec(err)?.index, undefined, `${argv}: raw control character on stderr`);
  }
  const shown = runs[0]?.[1].out ?? '';
  assert.match(shown, /\\x1b\]0;pwned\\x07/, 'the title sequence is shown escaped');
  assert.match(runs[6]?.[1].out ?? '', /\\u009b31m\\u202egnp/, 'doctor quotes the broken line escaped');
  assert.match(runs.at(-1)?.[1].out ?? '', /\\x1b\[2J/, 'watch prints escaped text');
});

test('--json output of a hostile transcript stays exact: JSON.parse gives the transcript text back', async () => {
  const { file } = hostileProjects();
  const { out, err } = await run(['json', file]);
  assert.equal(RAW.exec(out)?.index, undefined);
  assert.equal(RAW.exec(err)?.index, undefined);
  const session = JSON.parse(out) as Session;
  assert.equal(session.name, HOSTILE);
  assert.deepEqual(session.turns[0]?.atoms[3]?.message?.content, [{ type: 'text', text: HOSTILE }]);
});
