import { createReadStream } from 'node:fs';
import type { Diagnostic } from '../diagnostics/diagnostic.ts';
import { timeFormat } from './format-time.ts';
import { STDIN, writeDiagnostics } from './write-diagnostics.ts';
import { UNKNOWN_TIME } from '../model/time.ts';
import type { Turn } from '../model/types.ts';
import { decodeStream } from '../stream/decode-stream.ts';
import { fromStream, type StreamSnapshot } from '../stream/from-stream.ts';
import { UserError, type CliIO } from './cli-io.ts';
import { formatOutline, formatTurn } from './format-outline.ts';
import { fitLines, fitText, outputWidth } from './fit-width.ts';
import { safeText } from './safe-text.ts';
import { plural } from '../text/format-count.ts';
import { errorReason } from '../diagnostics/error-reason.ts';

/** Options of `romp stream`. */
export interface StreamCliOptions {
  json?: boolean;
  follow?: boolean;
  timezone?: string;
}

/**
 * `romp stream [FILE|-]`: decodes stream-json from a file or standard input, builds the Session, and
 * prints the outline (or JSON) when the stream ends; `--follow` prints each turn as it ends. Times are
 * the messages' own `timestamp`s: a message without one (many stream-json frames carry none) has
 * `UNKNOWN_TIME` and reads `time unknown`, so a recording shows no invented date.
 * @param file a path, `-` or nothing for standard input
 * @param options json, follow
 * @param io where to read and write
 * @returns the exit code
 */
export async function runStream(file: string | undefined, options: StreamCliOptions, io: CliIO): Promise<number> {
  const fromStdin = file === undefined || file === '-';
  const name = fromStdin ? STDIN : file;
  const source = fromStdin ? (io.stdin ?? []) : createReadStream(file);
  const diagnostics: Diagnostic[] = [];
  let last: StreamSnapshot | undefined;
  let printed = 0;
  let decoded = 0;
  try {
    const messages = decodeStream(source, { file: name, onDiagnostic: (d) => diagnostics.push(d) });
    const counted = (async function* () {
      for await (const message of messages) {
        decoded++;
        yield message;
      }
    })();
    // a message without a `timestamp` gets UNKNOWN_TIME, never its arrival: a recording replays at once
    for await (const snapshot of fromStream(counted, { now: () => UNKNOWN_TIME })) {
      last = snapshot;
      if (options.follow !== true) continue;
      const turns = snapshot.session.turns;
      for (; printed < turns.length && turns[printed]?.ended === true; printed++) {
        const turn = turns[printed] as Turn;
        io.stdout.write(
          options.json === true
            ? `${JSON.stringify(turn)}\n`
            : `${fitLines(formatTurn(turn, printed + 1, timeFormat(options.timezone)), outputWidth(io.stdout)).join('\n')}\n`,
        );
      }
    }
  } catch (error) {
    throw new UserError(`${name}: cannot read: ${errorReason(error)}`);
  }
  // as `show` refuses a file of which no line reads: not an empty recording of 0 turns
  const unreadable = new Set(diagnostics.filter((d) => d.severity === 'error').map((d) => d.line));
  if (decoded === 0 && unreadable.size > 0)
    throw new UserError(
      `${name}: not a stream-json recording (0 of ${plural(unreadable.size, 'line')} readable; the first: ${safeText(diagnostics[0]?.message ?? '')})`,
    );
  const session = (last as StreamSnapshot).session;
  if (options.follow !== true)
    io.stdout.write(
      options.json === true
        ? `${JSON.stringify(session)}\n`
        : fitText(formatOutline(session, timeFormat(options.timezone)), outputWidth(io.stdout)),
    );
  writeDiagnostics(io, diagnostics);
  return 0;
}
