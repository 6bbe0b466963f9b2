import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cli, COMMANDS, rompProgram } from '../src/cli/cli.ts';
import { keepingColumns } from './helpers/keeping-columns.ts';
import { runCli } from './helpers/run-cli.ts';

const silent = { stdout: { write: () => true }, stderr: { write: () => true } };
const silentErr = { stderr: { write: () => true } };

test("every command's --help names each of its options and arguments", async () => {
  const commands = rompProgram(silent, () => {}).commands;
  assert.ok(commands.length > 10, `only ${commands.length} commands registered`);
  for (const command of commands) {
    let out = '';
    const code = await cli([command.name(), '--help'], {
      stdout: { write: (s: string) => (out += s) },
      stderr: { write: () => true },
    });
    assert.equal(code, 0, command.name());
    assert.match(out, new RegExp(`^Usage: romp ${command.name()} `), command.name());
    for (const option of command.options)
      assert.ok(out.includes(option.flags), `romp ${command.name()} --help lacks ${option.flags}`);
    for (const argument of command.registeredArguments)
      assert.ok(out.includes(argument.name()), `romp ${command.name()} --help lacks ${argument.name()}`);
  }
});

test('the first argument, when a command, defines that command alone; anything else defines them all', async () => {
  const all = rompProgram(silent, () => {}).commands.map((c) => c.name());
  assert.deepEqual([...all].sort(), [...COMMANDS].sort());
  assert.deepEqual(
    rompProgram(silent, () => {}, undefined, 'resume-check').commands.map((c) => c.name()),
    ['resume-check'],
  );
  assert.deepEqual(
    rompProgram(silent, () => {}, undefined, 'turns').commands.map((c) => c.name()),
    ['turns'],
  );
  for (const first of ['--help', 'help', 'shwo'])
    assert.equal(rompProgram(silent, () => {}, undefined, first).commands.length, all.length, first);
  let err = '';
  const code = await cli(['shwo'], { stdout: { write: () => true }, stderr: { write: (s: string) => (err += s) } });
  assert.equal(code, 2);
  assert.match(err, /Did you mean show\?/);
});

test('a usage error is one romp: line and a pointer to --help, exit 2, not the whole help', async () => {
  for (const [argv, line] of [
    [['show', '--bogus'], "romp: unknown option '--bogus'"],
    [['ls', '--timezone', 'Nope'], "romp: option '--timezone <zone>' argument 'Nope' is invalid."],
    [['nosuch'], "romp: unknown command 'nosuch'"],
  ] as const) {
    const r = await runCli([...argv]);
    assert.equal(r.code, 2, argv.join(' '));
    assert.equal(r.out, '');
    const [first = '', ...rest] = r.err.trimEnd().split('\n');
    assert.ok(first.startsWith(line), `${argv.join(' ')}: ${r.err}`);
    assert.deepEqual(rest, ['(add --help to see the options)']);
  }
});

test('a command help fits COLUMNS: descriptions wrapped between words, even on 40 columns', async () => {
  await keepingColumns(async () => {
    const help = async (columns: string): Promise<string[]> => {
      process.env['COLUMNS'] = columns;
      let out = '';
      assert.equal(await cli(['ls', '--help'], { stdout: { write: (s: string) => (out += s) }, ...silentErr }), 0);
      return out.trimEnd().split('\n');
    };
    const wide = await help('200');
    const narrow = await help('40');
    assert.ok(narrow.length > wide.length + 10, `${narrow.length} lines at 40 columns, ${wide.length} at 200`);
    // a line takes 39 columns at most (the last is left free, as every output leaves it); a word wider than its
    // column (a path) is the only thing past them
    for (const line of narrow) assert.ok(line.length < 40 || /\S{20,}/.test(line), line);
    const words = (lines: string[]): string => lines.join(' ').replace(/\s+/g, ' ');
    assert.equal(words(narrow), words(wide));
  });
});

test('the top-level help fits the terminal: commands, examples and notes, at 40 to 120 columns', async () => {
  await keepingColumns(async () => {
    delete process.env['COLUMNS'];
    // a word wider than the line (the example's path, on 40 columns) is cut, so compare without the spaces
    const words = (text: string): string => text.replace(/\s+/g, '');
    const wide = await runCli(['--help'], 400);
    assert.equal(wide.code, 0);
    // at 400 columns each example is one line: the command, then what it does
    assert.match(wide.out, /\n {2}romp serve +a local viewer on 127\.0\.0\.1 \(a free port\), pages update live\n/);
    for (const columns of [40, 60, 80, 120]) {
      const r = await runCli(['--help'], columns);
      assert.equal(r.code, 0);
      for (const line of r.out.trimEnd().split('\n')) assert.ok(line.length < columns, `${columns}: ${line}`);
      // nothing lost or reordered: the same words as on the widest terminal
      assert.ok(words(r.out) === words(wide.out), `${columns}: words differ`);
    }
    // on 40 columns a command's description goes under it, six columns in; an example's too
    const narrow = (await runCli(['--help'], 40)).out.split('\n');
    const at = narrow.indexOf('  register [options] <rompUuid>');
    assert.deepEqual(narrow.slice(at, at + 3), [
      '  register [options] <rompUuid>',
      '      <files...>',
      '      register a session: its rompUuid',
    ]);
    const serve = narrow.indexOf('  romp serve');
    assert.deepEqual(narrow.slice(serve, serve + 3), [
      '  romp serve',
      '      a local viewer on 127.0.0.1 (a',
      '      free port), pages update live',
    ]);
  });
});

test('a command help wraps its usage line on 40 columns, past "Usage: ", nothing lost', async () => {
  await keepingColumns(async () => {
    process.env['COLUMNS'] = '40';
    let out = '';
    assert.equal(await cli(['usage', '--help'], { stdout: { write: (s: string) => (out += s) }, ...silentErr }), 0);
    // "Usage: romp usage [options] [report] [files...]" is 49 columns: 39 at most on the first line
    assert.deepEqual(out.split('\n').slice(0, 2), ['Usage: romp usage [options] [report]', '         [files...]']);
  });
});
