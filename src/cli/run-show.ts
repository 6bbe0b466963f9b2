import { fileURLToPath } from 'node:url';
import { formatDiagnostic } from '../diagnostics/diagnostic.ts';
import type { View } from '../graph/resolve-active-path.ts';
import { rompHome } from '../romp-home/romp-home.ts';
import { parseSession } from '../session/parse-session.ts';
import { checkFiles, checkRegistered, refuseUnreadable, UserError, type CliIO } from './cli-io.ts';
import { formatOutline } from './format-outline.ts';

/** The bundled example session, shown when no file is given. */
export const EXAMPLE_SESSION: string = fileURLToPath(new URL('../../../examples/session.jsonl', import.meta.url));

/** Options of `romp show` and `romp json`. */
export interface ShowOptions {
  view: View;
  json?: boolean;
  session?: string;
  rompHome?: string;
}

/**
 * `romp show` / `romp json`: parses one session (files, `--session` from the registry, or the bundled
 * example) with romp's home applied, and prints the outline or the JSON.
 * @param files transcript paths
 * @param options view, json, session, romp home
 * @param io where to write
 * @returns the exit code
 */
export async function runShow(files: string[], options: ShowOptions, io: CliIO): Promise<number> {
  if (files.length > 0 && options.session !== undefined) throw new UserError('give transcript files or --session, not both');
  await checkFiles(files);
  const useExample = files.length === 0 && options.session === undefined;
  const parseOptions = { view: options.view, rompHome: rompHome(options.rompHome) };
  const result = await parseSession(useExample ? [EXAMPLE_SESSION] : files, options.session === undefined ? parseOptions : { ...parseOptions, rompUuid: options.session });
  if (options.session !== undefined) checkRegistered(options.session, parseOptions.rompHome, result.session.files);
  refuseUnreadable(result.diagnostics);
  if (options.json === true) {
    io.stdout.write(`${JSON.stringify(result.session)}\n`);
    for (const d of result.diagnostics) io.stderr.write(`${formatDiagnostic(d)}\n`);
  } else {
    io.stdout.write(formatOutline(result.session, result.diagnostics));
  }
  return 0;
}
