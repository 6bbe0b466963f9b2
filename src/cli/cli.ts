import { Command, CommanderError, Option } from 'commander';
import { readFileSync } from 'node:fs';
import { systemErrorLine, UserError, type CliIO } from './cli-io.ts';
import type { LsOptions } from './run-ls.ts';
import type { RegistryOptions } from './run-registry.ts';
import type { ShowOptions } from './run-show.ts';
import type { StreamCliOptions } from './run-stream.ts';
import type { UsageCliOptions } from './run-usage.ts';
import type { ViewCliOptions } from './run-views.ts';
import type { WatchCliOptions } from './run-watch.ts';

export type { CliIO } from './cli-io.ts';

const VERSION = (JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

/**
 * The `romp` command line, testable: parses `argv`, writes to `io`, resolves to the exit code.
 *
 * - `romp show [FILES...] [--view full|context] [--session ID] [--json]`: the outline of one session
 *   (the bundled example when no file is given).
 * - `romp json [FILES...] [...]`: the Session as JSON on stdout, diagnostics on stderr.
 * - `romp stream [FILE|-] [--json] [--follow]`: the same from stream-json.
 * - `romp ls`, `romp sessions`, `romp register`, `romp resume`: Claude Code's sessions and romp's registry.
 * - `romp doctor FILES...`: a health report per transcript (exit 1 when lines were lost).
 * - `romp watch [FILES...] [--session ID] [--json]`: a live outline of a session being written.
 *
 * Each command's module is loaded when the command runs, so `romp show` does not pay for the watcher,
 * the usage workers or the stream decoder.
 *
 * Exit codes: 0 when the work was done (even with diagnostics), 1 when `romp doctor` found lost
 * lines, 2 for bad usage, a file that cannot be read (in every command), or a system error (`EACCES`,
 * `ENOSPC`, `EISDIR`, …): one `romp:` line on stderr naming it, never a stack trace.
 *
 * @param argv the arguments after the program name
 * @param io where to read and write
 * @param signal stops long-running commands (`romp watch`)
 * @returns the exit code
 */
export async function cli(argv: string[], io: CliIO, signal?: AbortSignal): Promise<number> {
  let exitCode = 0;
  const program = new Command('romp')
    .description('Read Claude Code sessions as Session → Turn → Atom → ContentBlock.')
    .version(VERSION)
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s) })
    .showHelpAfterError()
    .addHelpText(
      'after',
      `
Examples:
  romp show ~/.claude/projects/-work-app/<session>.jsonl     outline of one session
  romp show                                                  the bundled example
  romp json FILE --view context > session.json               the Session as JSON (what the model sees)
  claude -p "hi" --output-format stream-json --verbose | romp stream
  romp usage --timezone Europe/Paris                         tokens and USD of every session
  romp watch FILE                                            live outline of a running session

Exit codes: 0 done (even with diagnostics), 1 romp doctor found lost lines, 2 bad usage, unreadable file or system error.
Model and diagnostics: docs/model.md, docs/diagnostics.md.`,
    );
  const done = (code: number): void => {
    exitCode = code;
  };
  const home = (): Option => new Option('--romp-home <dir>', "romp's home folder (default: $ROMP_HOME, else ~/.romp)");
  const sessionCommand = (name: string, description: string, json: boolean): Command => {
    const command = program
      .command(name)
      .description(description)
      .argument('[files...]', 'transcript files of one session (default: the bundled example)')
      .addOption(new Option('--view <view>', 'history after a compaction: full (stitched) or context (what the model sees)').choices(['full', 'context']).default('full'))
      .option('--session <rompUuid>', "the session's files from romp's registry")
      .addOption(home());
    command.option('--json', json ? 'the default here (accepted, as on every command)' : 'print the Session as JSON instead (as `romp json`)');
    return command.action(async (files: string[], options: ShowOptions) => done(await (await import('./run-show.ts')).runShow(files, json ? { ...options, json: true } : options, io)));
  };
  sessionCommand('show', 'print an outline of a session: one block per turn, then the diagnostics', false);
  sessionCommand('json', 'print the Session as JSON on stdout, diagnostics on stderr', true);
  program
    .command('stream')
    .description('read stream-json (claude -p --output-format stream-json --verbose) and print the outline when it ends')
    .argument('[file]', 'NDJSON file; - or nothing for standard input')
    .option('--json', 'print the Session as JSON instead of the outline')
    .option('--follow', 'print each turn as it ends (with --json: one Turn per line)')
    .action(async (file: string | undefined, options: StreamCliOptions) => done(await (await import('./run-stream.ts')).runStream(file, options, io)));
  program
    .command('watch')
    .description('follow a session as it is written: print the outline lines of the turns that change')
    .argument('[files...]', 'transcript files of one session')
    .option('--session <rompUuid>', "the session's files from romp's registry (resume files registered later are followed)")
    .addOption(home())
    .option('--json', 'one NDJSON line per change: {changed, turns}')
    .option('--poll', 'poll the files instead of file-system events')
    .action(async (files: string[], options: WatchCliOptions) => done(await (await import('./run-watch.ts')).runWatch(files, options, io, signal)));
  for (const [view, description] of [
    ['turns', 'the turns of a session: time, author, ended, atoms, tools, tokens'],
    ['segments', 'the segments of a session: each turn split at its inputs (prompts, decisions)'],
    ['tools', 'the tool calls of a session: each tool_use with its result, duration, error; orphans'],
  ] as const) {
    program
      .command(view)
      .description(description)
      .argument('[files...]', 'transcript files of one session (default: the bundled example)')
      .option('--session <rompUuid>', "the session's files from romp's registry")
      .addOption(home())
      .option('--json', 'print the view as JSON')
      .action(async (files: string[], options: ViewCliOptions) => done(await (await import('./run-views.ts')).runView(view, files, options, io)));
  }
  program
    .command('usage')
    .description('tokens and cost of every API response, each counted once, per session, day and model')
    .argument('[files...]', "transcript files, with their sessions' subagent transcripts (<dir>/<id>/subagents/, or agent-*.jsonl beside them before 2.1.2) (default: every transcript under --projects)")
    .option('--projects <dir>', "Claude Code's projects folder (default: $CLAUDE_CONFIG_DIR/projects, else ~/.claude/projects)")
    .option('--no-subagents', 'with files: count only the files given, not their subagent transcripts')
    .option('--timezone <zone>', 'IANA zone for the days (default: this machine\'s)')
    .option('--prices <file>', 'JSON {model: {input, output, cache_write_5m, cache_write_1h, cache_read}} in USD per MTok, over the built-in table')
    .option('--json', 'print the report as JSON')
    .action(async (files: string[], options: UsageCliOptions) => done(await (await import('./run-usage.ts')).runUsage(files, options, io)));
  program
    .command('doctor')
    .description('check transcripts: diagnostics, orphaned parents, dead branches, compaction fallbacks, duplicate uuids (exit 1 when lines were lost)')
    .argument('<files...>', 'transcript files')
    .option('--json', 'print the reports as JSON')
    .action(async (files: string[], options: { json?: boolean }) => done(await (await import('./run-doctor.ts')).runDoctor(files, options, io)));
  program
    .command('ls')
    .description("list Claude Code's sessions, newest first, reading only each file's head and tail")
    .option('--projects <dir>', "Claude Code's projects folder (default: $CLAUDE_CONFIG_DIR/projects, else ~/.claude/projects)")
    .option('--project <name>', 'only this project folder')
    .option('--json', 'print the list as JSON')
    .action(async (options: LsOptions) => done(await (await import('./run-ls.ts')).runLs(options, io)));
  program
    .command('sessions')
    .description("list romp's registered sessions")
    .addOption(home())
    .option('--json', 'print the entries as JSON')
    .action(async (options: RegistryOptions) => done(await (await import('./run-registry.ts')).runSessions(options, io)));
  program
    .command('register')
    .description('register a session: its rompUuid and transcript files (the first is the anchor)')
    .argument('<rompUuid>', "the session's stable identity")
    .argument('<files...>', 'its transcript files')
    .option('--name <name>', 'display name')
    .option('--color <color>', 'display colour (default: derived from the rompUuid)')
    .option('--dir <dir>', 'working directory')
    .addOption(home())
    .option('--json', 'print the entry as JSON')
    .action(async (rompUuid: string, files: string[], options: RegistryOptions) => done(await (await import('./run-registry.ts')).runRegister(rompUuid, files, options, io)));
  program
    .command('resume')
    .description("record a resume: add the new transcript file to the session and move its leaf there")
    .argument('<rompUuid>', "the session's stable identity")
    .argument('<file>', 'the new transcript file')
    .addOption(home())
    .option('--json', 'print the entry as JSON')
    .action(async (rompUuid: string, file: string, options: RegistryOptions) => done(await (await import('./run-registry.ts')).runResume(rompUuid, file, options, io)));

  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    if (error instanceof UserError) {
      io.stderr.write(`romp: ${error.message}\n`);
      return 2;
    }
    const line = systemErrorLine(error);
    if (line === undefined) throw error;
    io.stderr.write(`romp: ${line}\n`);
    return 2;
  }
  return exitCode;
}
