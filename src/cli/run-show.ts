import { basename } from 'node:path';
import type { Session } from '../model/types.ts';
import { summarizeTurn } from '../views/summarize-turn.ts';
import { findSubagents, parseSubagent } from '../discover/find-subagents.ts';
import { UserError, type CliIO } from './cli-io.ts';
import { formatConversation, type SubagentNote } from './format-conversation.ts';
import { formatOutline } from './format-outline.ts';
import { timeFormat } from './format-time.ts';
import { loadSession, type SessionArgs } from './load-session.ts';
import { writeDiagnostics } from './write-diagnostics.ts';
import { plural } from '../text/format-count.ts';

/** Options of `romp show` and `romp json`. */
export interface ShowOptions extends SessionArgs {
  json?: boolean;
  /** The conversation as a person reads it, instead of the outline. */
  full?: boolean;
  /** `--no-color` sets it false; colours are used on a terminal unless `NO_COLOR` is set. */
  color?: boolean;
  /** `--no-pager` sets it false; on a terminal `--full` goes through `$PAGER` (`less -FRX`). */
  pager?: boolean;
  timezone?: string;
  /** Only this turn (1-based, as `romp turns` numbers them). */
  turn?: number;
}

/**
 * `romp show` / `romp json` / `romp cat`: reads one session (`loadSession`) and prints the outline, the
 * conversation (`--full`: `formatConversation`, coloured and through the pager on a terminal), or the
 * Session as JSON; with `--turn N` only that turn (its JSON: the Turn). Diagnostics go to stderr, the
 * first 20 and a count of the rest.
 * @param files the positional arguments
 * @param options view, json, full, colour, pager, zone, and how the session is named
 * @param io where to write
 * @returns the exit code
 */
export async function runShow(files: string[], options: ShowOptions, io: CliIO): Promise<number> {
  const result = await loadSession(files, options, io);
  const only = options.turn;
  const turns = result.session.turns.length;
  if (only !== undefined && only > turns)
    throw new UserError(`--turn ${only}: the session has ${plural(turns, 'turn')}`);
  if (options.json === true) {
    io.stdout.write(`${JSON.stringify(only === undefined ? result.session : result.session.turns[only - 1])}\n`);
  } else if (options.full === true) {
    const time = timeFormat(options.timezone);
    const tty = io.stdout.isTTY === true;
    const color = tty && options.color !== false && process.env['NO_COLOR'] === undefined;
    const text = formatConversation(result.session, {
      width: io.stdout.columns ?? 100,
      color,
      time: time.format,
      zone: time.zone,
      subagents: await subagentNotes(result.session),
      ...(only === undefined ? {} : { only }),
    });
    if (tty && options.pager !== false) await page(text, io);
    else writeStyled(io, text);
  } else {
    io.stdout.write(formatOutline(result.session, timeFormat(options.timezone), only));
  }
  writeDiagnostics(io, result.diagnostics);
  return 0;
}

/** The session's subagents by the id of the call that started them: turns and cost of each. */
async function subagentNotes(session: Session): Promise<Map<string, SubagentNote>> {
  const notes = new Map<string, SubagentNote>();
  for (const link of await findSubagents(session)) {
    const { session: agent } = await parseSubagent(link);
    const summaries = agent.turns.map((t, i) => summarizeTurn(t, i + 1));
    notes.set(link.tool_use_id, {
      turns: agent.turns.length,
      cost_usd: summaries.reduce((n, s) => n + s.cost_usd, 0),
      file: basename(link.path),
    });
  }
  return notes;
}

/** Shows text through `$PAGER` (default `less -FRX`: quits when it fits, keeps colours); straight out when none starts.
 * */
async function page(text: string, io: CliIO): Promise<void> {
  const [command = 'less', ...args] = (process.env['PAGER'] ?? 'less -FRX').split(/\s+/).filter((w) => w !== '');
  const { spawn } = await import('node:child_process'); // only here: `romp show` starts faster without it
  const written = await new Promise<boolean>((resolve) => {
    const child = spawn(command, args, { stdio: ['pipe', 'inherit', 'inherit'] });
    child.on('error', () => resolve(false));
    child.on('close', () => resolve(true));
    child.stdin.on('error', () => {}); // the reader quit early (q in less): not an error
    child.stdin.end(text);
  });
  if (!written) writeStyled(io, text);
}

function writeStyled(io: CliIO, text: string): void {
  if (io.stdout.styled !== undefined) io.stdout.styled(text);
  else io.stdout.write(text);
}
