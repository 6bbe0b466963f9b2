import { Command, CommanderError, Option } from 'commander';
import { fileURLToPath } from 'node:url';
import { createReadStream, readFileSync } from 'node:fs';
import { formatDiagnostic, type Diagnostic } from '../diagnostics/diagnostic.ts';
import type { Turn } from '../model/types.ts';
import { decodeStream } from '../stream/decode-stream.ts';
import { fromStream, type StreamSnapshot } from '../stream/from-stream.ts';
import type { View } from '../graph/resolve-active-path.ts';
import { parseSession, type ParseResult } from '../session/parse-session.ts';
import { formatOutline, formatTurn } from './format-outline.ts';

/** Where the CLI reads and writes. */
export interface CliIO {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  /** Read by `romp stream` when no file (or `-`) is given. */
  stdin?: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>;
}

const VERSION = (JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

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
 * - `romp stream [FILE|-] [--json] [--follow]`: the same from a stream-json recording or live pipe.
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
    .version(VERSION)
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

  program
    .command('stream')
    .description('read stream-json (claude -p --output-format stream-json --verbose, or Agent SDK messages as NDJSON) and print the outline when it ends')
    .argument('[file]', 'NDJSON file; - or nothing for standard input')
    .option('--json', 'print the Session as JSON instead of the outline')
    .option('--follow', 'print each turn as it ends (with --json: one Turn per line)')
    .action(async (file: string | undefined, options: StreamCliOptions) => {
      exitCode = await runStream(file, options, io);
    });

  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    throw error;
  }
  return exitCode;
}

interface StreamCliOptions {
  json?: boolean;
  follow?: boolean;
}

async function runStream(file: string | undefined, options: StreamCliOptions, io: CliIO): Promise<number> {
  const fromStdin = file === undefined || file === '-';
  const name = fromStdin ? '<stdin>' : file;
  const source = fromStdin ? (io.stdin ?? []) : createReadStream(file);
  const diagnostics: Diagnostic[] = [];
  let last: StreamSnapshot | undefined;
  let printed = 0;
  try {
    for await (const snapshot of fromStream(decodeStream(source as AsyncIterable<Uint8Array> | Iterable<Uint8Array>, { file: name, onDiagnostic: (d) => diagnostics.push(d) }))) {
      last = snapshot;
      if (options.follow !== true) continue;
      const turns = snapshot.session.turns;
      for (; printed < turns.length && turns[printed]?.ended === true; printed++) {
        const turn = turns[printed] as Turn;
        io.stdout.write(options.json === true ? `${JSON.stringify(turn)}\n` : `${formatTurn(turn, printed + 1).join('\n')}\n`);
      }
    }
  } catch (error) {
    io.stderr.write(`romp: ${name}: cannot read: ${(error as Error).message}\n`);
    return 2;
  }
  const session = (last as StreamSnapshot).session;
  if (options.follow === true) {
    for (const d of diagnostics) io.stderr.write(`${formatDiagnostic(d)}\n`);
  } else if (options.json === true) {
    io.stdout.write(`${JSON.stringify(session)}\n`);
    for (const d of diagnostics) io.stderr.write(`${formatDiagnostic(d)}\n`);
  } else {
    io.stdout.write(formatOutline(session, diagnostics));
  }
  return 0;
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
