import { Command, CommanderError, Option } from 'commander';
import { fileURLToPath } from 'node:url';
import { formatDiagnostic } from '../diagnostics/diagnostic.ts';
import type { View } from '../graph/resolve-active-path.ts';
import { parseSession, type ParseResult } from '../session/parse-session.ts';
import { formatOutline } from './format-outline.ts';

/** Where the CLI writes. */
export interface CliIO {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

/** The bundled example session, shown when no file is given. */
export const EXAMPLE_SESSION: string = fileURLToPath(new URL('../../../examples/session.jsonl', import.meta.url));

interface ViewOptions {
  view: View;
  json?: boolean;
}

/**
 * The `romp` command line, testable: parses `argv`, writes to `io`, resolves to the exit code.
 *
 * - `romp show [FILES...] [--view full|context] [--json]`: the outline of one session (the bundled
 *   example when no file is given); `--json` prints what `romp json` prints.
 * - `romp json [FILES...] [--view full|context]`: the Session as JSON on stdout, diagnostics on stderr.
 *
 * Exit codes: 0 when the session parsed (even with diagnostics), 2 for bad usage or a file that
 * cannot be read (one line on stderr naming the file).
 *
 * @param argv the arguments after the program name
 * @param io where to write
 * @returns the exit code
 */
export async function cli(argv: string[], io: CliIO): Promise<number> {
  let exitCode = 0;
  const program = new Command('romp')
    .description('Read Claude Code sessions as Session → Turn → Atom → ContentBlock.')
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s) })
    .showHelpAfterError();
  const viewOption = (): Option =>
    new Option('--view <view>', 'history after a compaction: full (stitched) or context (what the model sees)')
      .choices(['full', 'context'])
      .default('full');

  program
    .command('show')
    .description('print an outline of a session: one block per turn, then the diagnostics')
    .argument('[files...]', 'transcript files of one session (default: the bundled example)')
    .addOption(viewOption())
    .option('--json', 'print the Session as JSON instead (as `romp json`)')
    .action(async (files: string[], options: ViewOptions) => {
      exitCode = await run(files, options, io, options.json === true ? 'json' : 'outline');
    });
  program
    .command('json')
    .description('print the Session as JSON on stdout, diagnostics on stderr')
    .argument('[files...]', 'transcript files of one session (default: the bundled example)')
    .addOption(viewOption())
    .action(async (files: string[], options: ViewOptions) => {
      exitCode = await run(files, options, io, 'json');
    });

  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    throw error;
  }
  return exitCode;
}

async function run(files: string[], options: ViewOptions, io: CliIO, format: 'outline' | 'json'): Promise<number> {
  const paths = files.length > 0 ? files : [EXAMPLE_SESSION];
  const result: ParseResult = await parseSession(paths, { view: options.view });
  const unreadable = result.diagnostics.filter((d) => d.code === 'FILE_UNREADABLE');
  if (unreadable.length > 0) {
    for (const d of unreadable) io.stderr.write(`romp: ${d.file}: ${d.message}\n`);
    return 2;
  }
  if (format === 'outline') {
    io.stdout.write(formatOutline(result.session, result.diagnostics));
  } else {
    io.stdout.write(`${JSON.stringify(result.session)}\n`);
    for (const d of result.diagnostics) io.stderr.write(`${formatDiagnostic(d)}\n`);
  }
  return 0;
}
