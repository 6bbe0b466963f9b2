import { stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { View } from '../graph/resolve-active-path.ts';
import { rompHomeFolder } from './romp-home-folder.ts';
import { parseSession, type ParseResult } from '../session/parse-session.ts';
import { refuseNonTranscripts } from './refuse-non-transcripts.ts';
import { checkFiles, checkRegistered, refuseUnreadable, UserError, type CliIO } from './cli-io.ts';
import { refuseUnrelated } from './refuse-unrelated.ts';
import { resolveTargets, type TargetOptions } from './resolve-targets.ts';
import { shownPath } from './stdin-copy.ts';

/** The bundled example session, read when `--example` asks for it. */
export const EXAMPLE_SESSION: string = fileURLToPath(new URL('../../../examples/session.jsonl', import.meta.url));

/** How the commands that read one session (`show`, `json`, `turns`, `segments`, `tools`) are told which. */
export interface SessionArgs extends TargetOptions {
  view?: View;
  /** A rompUuid of romp's registry. */
  session?: string;
  rompHome?: string;
  /** The bundled example session. */
  example?: boolean;
}

/** Record types of the stream protocol that no transcript line has (docs/stream-protocol: `stream_event`, `result`). */
const STREAM_TYPES: ReadonlySet<string> = new Set(['stream_event', 'result']);

/**
 * Reads the one session a command names, the same way for every command: transcript paths, a Claude
 * session id or unique prefix, `--latest`, `--project DIR`, `-` (`resolveTargets`), `--session` (romp's
 * registry), or `--example` (the bundled example: only when asked, never because an argument was
 * forgotten). Parses it with romp's home applied. An empty file (Claude Code creates a session's file a moment before
 * its first line) is read as a session of no turns, and named on stderr: `romp: FILE: empty, no line written yet`. A
 * file holding stream-json messages (`stream_event`, `result`: no transcript has them) is parsed too, and `romp stream`
 * named on stderr.
 * @param args the command's positional arguments
 * @param options view, session, romp home, example, `--latest`, `--project`, `--projects`
 * @param io standard input for `-`; stderr for an empty file
 * @returns the parse
 * @throws UserError (exit 2) for nothing named, two ways of naming at once, an unreadable file, an
 *   unregistered `--session`, a file with no transcript line at all (`not a Claude Code transcript
 *   (0 of N lines readable)`), or files of unrelated sessions (`refuseUnrelated`)
 */
export async function loadSession(args: string[], options: SessionArgs, io: CliIO): Promise<ParseResult> {
  const ways = [
    args.length > 0 || options.latest === true || options.project !== undefined,
    options.session !== undefined,
    options.example === true,
  ].filter(Boolean).length;
  if (ways > 1)
    throw new UserError(
      'name one session: transcript files (or a session id, --latest, --project), --session, or --example',
    );
  const targets =
    options.example === true
      ? { files: [EXAMPLE_SESSION], cleanup: async () => {} }
      : await resolveTargets(args, options, 'one', io);
  try {
    if (targets.files.length === 0 && options.session === undefined) {
      throw new UserError(
        'which session? give a transcript file, a session id (or a unique prefix of one), --latest, --project DIR, --session ROMPUUID, or --example for the bundled example',
      );
    }
    await checkFiles(targets.files);
    const home = rompHomeFolder(options.rompHome);
    const result = await parseSession(targets.files, {
      view: options.view ?? 'full',
      rompHome: home,
      ...(options.session === undefined ? {} : { rompUuid: options.session }),
    });
    if (options.session !== undefined) checkRegistered(options.session, home, result.session.files);
    refuseUnreadable(result.diagnostics);
    refuseNonTranscripts(result);
    if (options.session === undefined) await refuseUnrelated(result); // the registry says its files are one
    // a session Claude Code is creating is 0 bytes for a moment: shown (0 turns, exit 0), and said to be empty
    for (const file of targets.files)
      if ((await stat(file).catch(() => undefined))?.size === 0)
        io.stderr.write(`romp: ${shownPath(file)}: empty, no line written yet\n`);
    // an Agent SDK / `claude -p --output-format stream-json` capture parses, poorly: point to its own reader
    const streamed = new Set(result.session.records.filter((r) => STREAM_TYPES.has(r.type)).map((r) => r.fsid));
    for (const file of result.session.files)
      if (streamed.has(file.fsid))
        io.stderr.write(
          `romp: ${shownPath(file.path)}: holds stream-json messages (stream_event, result): \`romp stream\` reads a stream\n`,
        );
    return result;
  } finally {
    await targets.cleanup();
  }
}
