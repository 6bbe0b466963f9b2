import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { checkFiles, UserError, type CliIO } from './cli-io.ts';
import { resolveTargets, type TargetOptions } from './resolve-targets.ts';

/**
 * Runs `work` on the one transcript file a command names (`resolveTargets`: a path, a session id or
 * unique prefix, `--latest`, `--project`, `-`), checked readable, and cleans up after it (the copy of
 * standard input). For commands that read one file themselves (`romp html`, `romp export`).
 * @param command the command's name, for the error
 * @param args its positional arguments
 * @param options `--latest`, `--project`, `--projects`
 * @param io standard input for `-`
 * @param work what to do with the file
 * @returns what `work` returns
 * @throws UserError when no file or more than one is named
 */
export async function withOneSessionFile<T>(
  command: string,
  args: string[],
  options: TargetOptions,
  io: CliIO,
  work: (file: string) => Promise<T>,
): Promise<T> {
  const targets = await resolveTargets(args, options, 'one', io);
  try {
    const [file] = targets.files;
    if (file === undefined)
      throw new UserError('name a session: a transcript path, a session id or prefix, --latest or --project');
    if (targets.files.length > 1) throw new UserError(`romp ${command} reads one session`);
    await checkFiles(targets.files);
    return await work(file);
  } finally {
    await targets.cleanup();
  }
}

/**
 * Writes a command's output to `-o FILE` (its folder made when missing, as `romp export`'s `--out`),
 * saying on stderr what was written (its size and `summary`), or to standard output without one.
 * @param io where to write
 * @param output the `-o` path, if any
 * @param text the output
 * @param summary what the file holds, e.g. `12 turns`
 */
export async function writeOutput(io: CliIO, output: string | undefined, text: string, summary: string): Promise<void> {
  if (output === undefined) {
    io.stdout.write(text);
    return;
  }
  await mkdir(dirname(output), { recursive: true });
  await writeFile(output, text);
  io.stderr.write(`wrote ${output}: ${Math.ceil(Buffer.byteLength(text) / 1024)} KB, ${summary}\n`);
}
