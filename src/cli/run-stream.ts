import { createReadStream } from 'node:fs';
import { formatDiagnostic, type Diagnostic } from '../diagnostics/diagnostic.ts';
import type { Turn } from '../model/types.ts';
import { decodeStream } from '../stream/decode-stream.ts';
import { fromStream, type StreamSnapshot } from '../stream/from-stream.ts';
import { UserError, type CliIO } from './cli-io.ts';
import { formatOutline, formatTurn } from './format-outline.ts';

/** Options of `romp stream`. */
export interface StreamCliOptions {
  json?: boolean;
  follow?: boolean;
}

/**
 * `romp stream [FILE|-]`: decodes stream-json from a file or standard input, builds the Session, and
 * prints the outline (or JSON) when the stream ends; `--follow` prints each turn as it ends.
 * @param file a path, `-` or nothing for standard input
 * @param options json, follow
 * @param io where to read and write
 * @returns the exit code
 */
export async function runStream(file: string | undefined, options: StreamCliOptions, io: CliIO): Promise<number> {
  const fromStdin = file === undefined || file === '-';
  const name = fromStdin ? '<stdin>' : file;
  const source = fromStdin ? (io.stdin ?? []) : createReadStream(file);
  const diagnostics: Diagnostic[] = [];
  let last: StreamSnapshot | undefined;
  let printed = 0;
  try {
    const messages = decodeStream(source, { file: name, onDiagnostic: (d) => diagnostics.push(d) });
    for await (const snapshot of fromStream(messages)) {
      last = snapshot;
      if (options.follow !== true) continue;
      const turns = snapshot.session.turns;
      for (; printed < turns.length && turns[printed]?.ended === true; printed++) {
        const turn = turns[printed] as Turn;
        io.stdout.write(options.json === true ? `${JSON.stringify(turn)}\n` : `${formatTurn(turn, printed + 1).join('\n')}\n`);
      }
    }
  } catch (error) {
    throw new UserError(`${name}: cannot read: ${(error as Error).message}`);
  }
  const session = (last as StreamSnapshot).session;
  if (options.follow !== true && options.json !== true) {
    io.stdout.write(formatOutline(session, diagnostics));
    return 0;
  }
  if (options.follow !== true) io.stdout.write(`${JSON.stringify(session)}\n`);
  for (const d of diagnostics) io.stderr.write(`${formatDiagnostic(d)}\n`);
  return 0;
}
