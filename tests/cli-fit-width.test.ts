import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fitWidth, keepEnd, outputWidth, shareWidth, wrapLines, wrapWords } from '../src/cli/fit-width.ts';
import { runCli } from './helpers/run-cli.ts';
import { keepingColumns } from './helpers/keeping-columns.ts';
import { tempDir } from './helpers/temp-dir.ts';
import { assistant, text, toolResult, toolUse, user } from './helpers/transcript.ts';

test('keepEnd: a path cut to its end, never inside an escape or a surrogate pair (the piece kept is shorter)', () => {
  assert.equal(keepEnd('/work/app/server', 8), '…/server');
  assert.equal(keepEnd('/work/app', 20), '/work/app');
  // the cut would fall after the backslash of \x1b: it starts past the escape instead, not at a bare "x1b"
  assert.equal(keepEnd('/home/user/x\\x1b[31mevil', 12), '…[31mevil');
  assert.equal(keepEnd('/home/\\u202eevil', 8), '…evil');
  assert.equal(keepEnd('ab😀cd', 4), '…cd');
});

test('outputWidth: COLUMNS when a positive integer, else the terminal width, else none (a pipe)', () => {
  assert.equal(outputWidth({}, {}), undefined);
  assert.equal(outputWidth({ columns: 120 }, {}), 120);
  assert.equal(outputWidth({ columns: 120 }, { COLUMNS: '60' }), 60);
  assert.equal(outputWidth({}, { COLUMNS: ' 90 ' }), 90);
  for (const bad of ['0', '-5', 'wide', '', '1e3'])
    assert.equal(outputWidth({ columns: 100 }, { COLUMNS: bad }), 100, `COLUMNS=${bad}`);
});

test('fitWidth: wide characters take two columns, colour codes none and are never cut inside', () => {
  assert.equal(fitWidth('abcdef', 6), 'abcdef');
  assert.equal(fitWidth('abcdef', 4), 'abc…');
  assert.equal(fitWidth('日本語のテスト', 7), '日本語…');
  // 6 visible columns: whole at 6; at 4 the colour is closed after the ellipsis
  assert.equal(fitWidth('\u001b[1mabc\u001b[0mdef', 6), '\u001b[1mabc\u001b[0mdef');
  assert.equal(fitWidth('\u001b[1mabcdef\u001b[0m', 4), '\u001b[1mabc…\u001b[0m');
  assert.equal(fitWidth('ab\u001b[32mcdef', 3), 'ab\u001b[32m…\u001b[0m');
});

const SID = 'cccc0000-0000-4000-8000-000000000003';
const PROMPT = `please look at ${'the long prompt '.repeat(12)}end`;
const COMMAND = `npm test -- ${'--grep slow-suite '.repeat(6)}`.trim();

/** One session whose prompt (208 characters) and Bash command (119) each make a line longer than 80 columns. */
function projects(): { dir: string; file: string } {
  const dir = tempDir('romp-fit-width-');
  const folder = join(dir, '-work-a-project-folder-with-a-rather-long-name');
  mkdirSync(folder);
  const file = join(folder, `${SID}.jsonl`);
  const lines = [
    user('u1', null, PROMPT, 0),
    assistant('a1', 'u1', toolUse('t1', 'Bash', { command: COMMAND }), 1, { mid: 'm1', stop: 'tool_use' }),
    user('r1', 'a1', [toolResult('t1', 'ok')], 2),
    assistant('a2', 'r1', text('done'), 3, { mid: 'm2', stop: 'end_turn' }),
  ].map((l) => JSON.stringify({ ...l, sessionId: SID, cwd: '/work/a/project/folder/with/a/rather/long/name' }));
  writeFileSync(file, `${lines.join('\n')}\n`);
  return { dir, file };
}

/** Each command on the fixture: its output, with `COLUMNS` set to `columns` (or unset) for the run. */
async function outputs(columns: string | undefined): Promise<Map<string, string>> {
  const { dir, file } = projects();
  const home = tempDir('romp-home-');
  return keepingColumns(async () => {
    if (columns === undefined) delete process.env['COLUMNS'];
    else process.env['COLUMNS'] = columns;
    const runs: Array<[string, string[]]> = [
      ['ls', ['ls', '--projects', dir, '--timezone', 'UTC']],
      ['show', ['show', file, '--timezone', 'UTC']],
      ['full', ['show', '--full', file, '--timezone', 'UTC']],
      ['tools', ['tools', file]],
      ['turns', ['turns', file, '--timezone', 'UTC']],
      ['search', ['search', 'slow-suite', '--projects', dir, '--romp-home', home, '--no-progress']],
      ['usage', ['usage', '--projects', dir, '--timezone', 'UTC', '--no-index']],
      ['usage project', ['usage', 'project', '--projects', dir, '--timezone', 'UTC', '--no-index']],
      ['sql', ['sql', 'SELECT key, paths_json, title FROM sessions', '--romp-home', home]],
    ];
    const out = new Map<string, string>();
    for (const [name, argv] of runs) {
      const r = await runCli(argv);
      assert.equal(r.code, 0, `${name}: ${r.err}`);
      out.set(name, r.out);
    }
    return out;
  });
}

test('in a pipe every command keeps its lines whole; with COLUMNS=60 each line fits 59 columns', async () => {
  const whole = await outputs(undefined);
  for (const [name, out] of whole) {
    assert.ok(
      out.split('\n').some((l) => l.length > 80),
      `${name} has a line over 80 columns in a pipe:\n${out}`,
    );
  }
  // the values that make the lines long are there in full (show's outline quotes a prompt's first 100 characters)
  // but ls's title, cut at 200 columns everywhere (a first prompt can be megabytes of pasted text)
  assert.ok(
    whole.get('ls')?.includes(`/work/a/project/folder/with/a/rather/long/name  ${SID}  ${PROMPT.slice(0, 199)}…\n`),
  );
  assert.ok(whole.get('tools')?.includes(`Bash: ${COMMAND}`));
  assert.ok(whole.get('full')?.includes(PROMPT));
  const cut = await outputs('60');
  for (const [name, out] of cut) {
    // but search's commands that open a hit: a command cut to the width would not run
    const command = (l: string): boolean => name === 'search' && /^ {2}(romp show|claude --resume) \S+/.test(l);
    const long = out.split('\n').filter((l) => [...l].length > 59 && !command(l));
    assert.deepEqual(long, [], `${name} fits 59 columns with COLUMNS=60`);
  }
  assert.match(cut.get('search') ?? '', /^ {2}romp show \/\S+\/cccc0000-0000-4000-8000-000000000003\.jsonl --turn 1$/m);
  assert.match(cut.get('tools') ?? '', /^#1 {2}Bash: npm test -- --grep slow-suite .*…$/m);
  // usage: the cache and total columns gone (ccusage's compact layout), the project cut to its last 10 columns,
  // the title line wrapped between words
  const project = cut.get('usage project') ?? '';
  assert.doesNotMatch(project, /Cache|Total Tokens/);
  assert.match(project, /^│ …long\/name │ - sonnet-4-5 │ {4}20 │ {5}10 │ /m);
  assert.match(project, /^Usage by project \(times in UTC; each API response counted\n {2}once\)$/m);
});

test('wrapLines: prose broken between words, continuations indented past the line own indent', () => {
  assert.deepEqual(wrapLines(['  alpha beta gamma delta epsilon'], 21), ['  alpha beta gamma', '    delta epsilon']);
  // a word longer than the line is cut into pieces; no width: whole, made safe
  assert.deepEqual(wrapLines(['x abcdefghijklmnopqrstuvwxyz'], 12), ['x', '  abcdefghi', '  jklmnopqr', '  stuvwxyz']);
  assert.deepEqual(wrapLines(['a\u001b[2Jb c'], undefined), ['a\\x1b[2Jb c']);
  // a newline inside a line (a file named with one, in a diagnostic) is escaped, not a line break that forges a line
  assert.deepEqual(wrapLines(['/p/a\nromp: fine.jsonl:1: error X'], 30), ['/p/a\\x0aromp: fine.jsonl:1:', '  error X']);
  assert.deepEqual(wrapLines(['/p/a\nb'], undefined), ['/p/a\\x0ab']);
  assert.deepEqual(wrapWords('one two three', 7, 5), ['one two', 'three']);
  // a cut never splits an escape or a surrogate pair: the piece before it is shorter instead
  assert.deepEqual(wrapWords('abcd\u001bxyz', 6), ['abcd', '\\x1bxy', 'z']);
  assert.deepEqual(wrapWords('ab\u202ecd', 4), ['ab', '\\u202e', 'cd']);
  assert.deepEqual(wrapWords('\u202e', 3), ['\\u202e']);
  assert.deepEqual(wrapWords('abc😀d', 4), ['abc', '😀d']);
});

test('romp ls on 100 columns: the id gives way to its first 8 characters so that the title keeps 20', async () => {
  const { dir } = projects();
  await keepingColumns(async () => {
    process.env['COLUMNS'] = '100';
    const row = (await runCli(['ls', '--projects', dir, '--timezone', 'UTC'])).out.split('\n')[1] ?? '';
    // the whole id (16 + 7 + 6 + 36 columns and their gaps) would leave the title 99 - 87 = 12; with 8 of its
    // characters the project gets its 32 (the path's last 31 after the …) and the title 99 - 79 = 20
    assert.equal(
      row,
      `2026-03-01 10:00        1          …/folder/with/a/rather/long/name  cccc0000  please look at the …`,
    );
    process.env['COLUMNS'] = '130';
    const wide = (await runCli(['ls', '--projects', dir, '--timezone', 'UTC'])).out.split('\n')[1] ?? '';
    assert.ok(wide.endsWith(`  ${SID}  please look at the lo…`), wide);
  });
});

test('romp search on 80 columns: a hit keeps its turn and who wrote it; the project and first prompt give way', async () => {
  const { dir } = projects();
  const home = tempDir('romp-home-');
  const heads = async (): Promise<string[]> =>
    (
      await runCli([
        'search',
        'slow-suite',
        '--projects',
        dir,
        '--romp-home',
        home,
        '--no-progress',
        '--timezone',
        'UTC',
      ])
    ).out
      .split('\n')
      .filter((l) => l.startsWith('2026-'));
  await keepingColumns(async () => {
    process.env['COLUMNS'] = '80';
    // untitled, the session is named by its first prompt, as in romp ls. Time (16), turn (6), who (13): 41 columns
    // with their gaps; the prompt keeps 20 after a gap: 22; the project's end in the 16 left (its last 15 after the
    // …): 79
    assert.deepEqual(await heads(), [
      '2026-03-01 10:00  turn 1  tool_use Bash  …ather/long/name  please look at the …',
    ]);
    // in a pipe the line is whole but the prompt (210 characters), cut to 200 columns as romp ls cuts it
    delete process.env['COLUMNS'];
    assert.deepEqual(await heads(), [
      `2026-03-01 10:00  turn 1  tool_use Bash  /work/a/project/folder/with/a/rather/long/name  ${PROMPT.slice(0, 199)}…`,
    ]);
  });
});

test('romp usage: COLUMNS too narrow for the table leaves out the cache columns, as a narrow terminal does', async () => {
  const { dir } = projects();
  await keepingColumns(async () => {
    delete process.env['COLUMNS'];
    assert.match((await runCli(['usage', '--projects', dir, '--timezone', 'UTC'])).out, /Cache Read/);
    process.env['COLUMNS'] = '80';
    assert.doesNotMatch((await runCli(['usage', '--projects', dir, '--timezone', 'UTC'])).out, /Cache Read/);
  });
});

test('romp usage session on 72 columns stacks id, title, project and time in one column, cut to fit', async () => {
  const { dir } = projects();
  await keepingColumns(async () => {
    process.env['COLUMNS'] = '72';
    const { out } = await runCli(['usage', 'session', '--projects', dir, '--timezone', 'UTC', '--no-index']);
    // the numbers take 12 + 5 + 6 + 10 columns and 16 of borders: 71 - 49 leaves the labels 22
    const lines = out.split('\n');
    assert.deepEqual(
      lines.slice(6, 10).map((l) => l.slice(0, 26)),
      [
        '│ cccc0000               │',
        '│ please look at the lo… │',
        '│ …th/a/rather/long/name │',
        '│ 2026-03-01 10:00       │',
      ],
    );
    assert.deepEqual(
      lines.filter((l) => [...l].length > 71),
      [],
    );
  });
});

test('shareWidth: narrow columns keep their width, the wide ones share the rest evenly', () => {
  assert.deepEqual(shareWidth([5, 30, 50], 100), [5, 30, 50]);
  // 40 - 5 leaves 35 for two: 17 each
  assert.deepEqual(shareWidth([5, 30, 50], 40), [5, 17, 17]);
  assert.deepEqual(shareWidth([5, 10, 50], 40), [5, 10, 25]);
  assert.deepEqual(shareWidth([20, 20], 3), [1, 1]);
});

test('romp doctor and the diagnostics on stderr wrap to COLUMNS between words, nothing lost', async () => {
  const dir = tempDir('romp-fit-doctor-');
  const file = join(dir, 'broken.jsonl');
  const bad = Array.from({ length: 22 }, (_, i) => `{"not json": number ${i} in a line long enough to wrap`);
  writeFileSync(file, `${[JSON.stringify(user('u1', null, 'hello', 0)), ...bad].join('\n')}\n`);
  await keepingColumns(async () => {
    process.env['COLUMNS'] = '50';
    const doctor = await runCli(['doctor', file]);
    const show = await runCli(['show', file, '--timezone', 'UTC']);
    for (const [name, text] of [
      ['doctor', doctor.out],
      ['show stderr', show.err],
    ] as const) {
      const lines = text.trimEnd().split('\n');
      assert.ok(lines.length > 22, `${name}: ${lines.length} lines`);
      for (const line of lines) assert.ok(line.length <= 49, `${name}: ${line.length}: ${line}`);
    }
    // the words of the last diagnostic, and of the count, read back once the wrapping is undone
    const joined = (text: string): string => text.replace(/\n +/g, ' ');
    assert.match(
      joined(doctor.out),
      /:23: error INVALID_JSON line is not valid JSON \(52 chars: "\{\\"not json\\": number 21 in a line long enough to wrap"\)/,
    );
    assert.match(joined(show.err), /… and 2 more; romp doctor \S+broken\.jsonl lists them all\n$/);
  });
});
