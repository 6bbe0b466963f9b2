import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cli, rompProgram } from '../src/cli/cli.ts';

const silent = { stdout: { write: () => true }, stderr: { write: () => true } };

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
