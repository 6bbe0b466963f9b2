import { resolve } from 'node:path';
import { fsidOf } from '../model/fsid-of.ts';
import { formatDiagnostic } from '../diagnostics/diagnostic.ts';
import {
  isRompUuid,
  listSessions,
  notARompUuid,
  RegistryError,
  recordResume,
  registerSession,
  resolveSession,
} from '../romp-home/registry.ts';
import { rompHomeFolder } from './romp-home-folder.ts';
import { UserError, type CliIO } from './cli-io.ts';
import { checkTranscripts } from './check-transcripts.ts';
import { plural } from '../text/format-count.ts';
import { fitLines, outputWidth } from './fit-width.ts';
import { safeText } from './safe-text.ts';

/** Options shared by the registry commands. */
export interface RegistryOptions {
  rompHome?: string;
  json?: boolean;
  name?: string;
  color?: string;
  dir?: string;
}

const fileOf = (path: string): { fsid: string; path: string } => ({ fsid: fsidOf(path), path: resolve(path) });

/**
 * `romp register <rompUuid> FILE...`: creates (or replaces) the registry entry; the first file is the anchor.
 * @param rompUuid the session's identity
 * @param files its transcript files
 * @param options romp home, name, colour, dir, json
 * @param io where to write
 * @returns the exit code
 */
export async function runRegister(
  rompUuid: string,
  files: string[],
  options: RegistryOptions,
  io: CliIO,
): Promise<number> {
  checkRompUuid(rompUuid);
  await checkTranscripts(files);
  const entry = await registerSession(rompHomeFolder(options.rompHome), {
    rompUuid,
    files: files.map(fileOf),
    ...(options.name === undefined ? {} : { name: options.name }),
    ...(options.color === undefined ? {} : { color: options.color }),
    ...(options.dir === undefined ? {} : { dir: options.dir }),
  }).catch(asUserError);
  io.stdout.write(
    options.json === true
      ? `${JSON.stringify(entry)}\n`
      : `registered ${entry.rompUuid}: ${plural(entry.files.length, 'file')}, leaf ${entry.leafFsid}\n`,
  );
  return 0;
}

/**
 * `romp resume <rompUuid> FILE`: adds a resume file to the entry and moves its leaf there.
 * @param rompUuid the session's identity
 * @param file the new transcript
 * @param options romp home, json
 * @param io where to write
 * @returns the exit code
 */
export async function runResume(rompUuid: string, file: string, options: RegistryOptions, io: CliIO): Promise<number> {
  checkRompUuid(rompUuid);
  await checkTranscripts([file]);
  const home = rompHomeFolder(options.rompHome);
  // a mistyped id would otherwise start a new session quietly
  if ((await resolveSession(home, rompUuid)) === undefined)
    throw new UserError(`no session ${rompUuid} in the registry at ${home} (romp register it first)`);
  const { fsid, path } = fileOf(file);
  const entry = await recordResume(home, rompUuid, fsid, path).catch(asUserError);
  io.stdout.write(
    options.json === true
      ? `${JSON.stringify(entry)}\n`
      : `${entry.rompUuid}: ${plural(entry.files.length, 'file')}, leaf ${entry.leafFsid}\n`,
  );
  return 0;
}

/** A registry write's failure is the user's to fix: one `romp: …` line, no stack trace. */
function asUserError(error: unknown): never {
  throw error instanceof RegistryError ? new UserError(error.message) : error;
}

function checkRompUuid(rompUuid: string): void {
  if (!isRompUuid(rompUuid)) throw new UserError(notARompUuid(rompUuid));
}

/**
 * `romp sessions`: the registry's entries.
 * @param options romp home, json
 * @param io where to write
 * @returns the exit code
 */
export async function runSessions(options: RegistryOptions, io: CliIO): Promise<number> {
  const entries = await listSessions(rompHomeFolder(options.rompHome), (d) =>
    io.stderr.write(`${formatDiagnostic(d)}\n`),
  );
  if (options.json === true) io.stdout.write(`${JSON.stringify(entries)}\n`);
  else if (entries.length === 0) io.stdout.write('no registered sessions\n');
  else
    io.stdout.write(
      `${fitLines(
        entries.map((e) =>
          safeText(
            `${e.rompUuid}  ${e.name || '(unnamed)'}  ${plural(e.files.length, 'file')}  leaf ${e.leafFsid}  ${e.dir}`,
          ),
        ),
        outputWidth(io.stdout),
      ).join('\n')}\n`,
    );
  return 0;
}
