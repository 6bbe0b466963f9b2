import { segments } from '../views/segments.ts';
import { summarizeTurn } from '../views/summarize-turn.ts';
import { toolCalls, type ToolCall } from '../views/tool-calls.ts';
import { toolLabel } from '../views/tool-label.ts';
import { isKnownTime } from '../model/time.ts';
import type { CliIO } from './cli-io.ts';
import { formatTurn } from './format-outline.ts';
import { timeFormat } from './format-time.ts';
import { isoTime, withIsoTimes } from './iso-time.ts';
import { loadSession, type SessionArgs } from './load-session.ts';
import { formatCount, plural } from '../text/format-count.ts';
import { safeText } from './safe-text.ts';
import { writeDiagnostics } from './write-diagnostics.ts';
import { fitLines, outputWidth } from './fit-width.ts';

/** Options of `romp turns`, `romp segments`, `romp tools`. */
export interface ViewCliOptions extends SessionArgs {
  json?: boolean;
  timezone?: string;
}

/**
 * `romp turns | segments | tools [FILES...]`: one derived view of a session (in the `--view` given), as
 * lines or `--json`; `turns --json` is one `summarizeTurn` per turn. In `--json` the view's own times
 * (`t`, `end`) are ISO strings with the zone's offset (`isoTime`); a segment's `atoms` are the model's, as
 * `romp json` prints them (epoch ms).
 * @param view which view
 * @param files the positional arguments (`loadSession`)
 * @param options view, json, zone, and how the session is named
 * @param io where to write
 * @returns the exit code
 */
export async function runView(
  view: 'turns' | 'segments' | 'tools',
  files: string[],
  options: ViewCliOptions,
  io: CliIO,
): Promise<number> {
  const { session, diagnostics } = await loadSession(files, options, io);
  const time = timeFormat(options.timezone);
  // turns and segments print times: said once, above them, in which zone (tools prints none)
  const zone = view === 'tools' ? [] : [`times in ${time.zone}`];
  const write = (value: unknown[], text: () => string[]): void => {
    const none = `no ${view === 'tools' ? 'tool calls' : view} in this session`;
    io.stdout.write(
      options.json === true
        ? `${JSON.stringify(value)}\n`
        : `${value.length === 0 ? none : fitLines([...zone, ...text()], outputWidth(io.stdout)).join('\n')}\n`,
    );
  };
  const iso = isoTime(options.timezone);
  if (view === 'turns')
    write(
      session.turns.map((t, i) => withIsoTimes(summarizeTurn(t, i + 1), ['t', 'end'], iso)),
      () => session.turns.flatMap((t, i) => formatTurn(t, i + 1, time)),
    );
  else if (view === 'segments') {
    const list = segments(session);
    write(
      list.map((s) => withIsoTimes(s, ['t', 'end'], iso)),
      () =>
        list.map(
          (s) =>
            `${time.format(s.t)}  turn ${s.turnId.split(':').at(-1)} #${s.index}  ${s.input ?? '(before any input)'}  ${plural(s.atoms.length, 'atom')}  ${isKnownTime(s.t) ? `${Math.round((s.end - s.t) / 1000)} s` : 'time unknown'}`,
        ),
    );
  } else {
    const list = toolCalls(session);
    const turnOf = new Map(session.turns.map((t, i) => [t.id, i + 1]));
    write(
      list.map((c) => withIsoTimes(c, ['t', 'end'], iso)),
      () => list.map((c) => toolLine(c, turnOf.get(c.turnId) ?? 0)),
    );
  }
  writeDiagnostics(io, diagnostics);
  return 0;
}

/** A tool call in one line: its turn, what it did (`toolLabel`), how long it took, and its error text. */
function toolLine(call: ToolCall, turn: number): string {
  const what = call.name === '' ? '(orphan result)' : safeText(toolLabel(call.name, call.input));
  const took =
    call.duration_ms === null
      ? call.resultUuid === null
        ? 'no result'
        : 'time unknown'
      : `${formatCount(call.duration_ms)} ms`;
  const error = call.is_error ? `  error: ${safeText(call.error ?? '').slice(0, 120)}` : '';
  return `#${turn}  ${what}  ${took}  ${safeText(call.tool_use_id)}${error}`;
}
