import { rompHome } from '../romp-home/romp-home.ts';
import { parseSession } from '../session/parse-session.ts';
import { segments } from '../views/segments.ts';
import { toolCalls } from '../views/tool-calls.ts';
import { checkFiles, checkRegistered, UserError, type CliIO } from './cli-io.ts';
import { EXAMPLE_SESSION } from './run-show.ts';
import { formatTime, formatTurn, TIME_UNKNOWN } from './format-outline.ts';
import { isKnownTime } from '../model/time.ts';

/** Options of `romp turns`, `romp segments`, `romp tools`. */
export interface ViewCliOptions {
  json?: boolean;
  session?: string;
  rompHome?: string;
}

/**
 * `romp turns | segments | tools [FILES...]`: one derived view of a session, as lines or `--json`.
 * @param view which view
 * @param files transcript paths (default: the bundled example)
 * @param options json, session, romp home
 * @param io where to write
 * @returns the exit code
 */
export async function runView(view: 'turns' | 'segments' | 'tools', files: string[], options: ViewCliOptions, io: CliIO): Promise<number> {
  if (files.length > 0 && options.session !== undefined) throw new UserError('give transcript files or --session, not both');
  await checkFiles(files);
  const paths = files.length === 0 && options.session === undefined ? [EXAMPLE_SESSION] : files;
  const home = rompHome(options.rompHome);
  const { session, diagnostics } = await parseSession(paths, { rompHome: home, ...(options.session === undefined ? {} : { rompUuid: options.session }) });
  if (options.session !== undefined) checkRegistered(options.session, home, session.files);
  const unreadable = diagnostics.filter((d) => d.code === 'FILE_UNREADABLE');
  if (unreadable.length > 0) throw new UserError(unreadable.map((d) => `${d.file}: ${d.message}`).join('\n'));
  const write = (value: unknown[], text: () => string[]): void => {
    const none = `no ${view === 'tools' ? 'tool calls' : view} in this session`;
    io.stdout.write(options.json === true ? `${JSON.stringify(value)}\n` : `${value.length === 0 ? none : text().join('\n')}\n`);
  };
  if (view === 'turns') write(session.turns, () => session.turns.flatMap((t, i) => formatTurn(t, i + 1)));
  else if (view === 'segments') {
    const list = segments(session);
    write(list, () => list.map((s) => `${formatTime(s.t)}  turn ${s.turnId.split(':').at(-1)} #${s.index}  ${s.input ?? '(before any input)'}  ${s.atoms.length} atoms  ${isKnownTime(s.t) ? `${Math.round((s.end - s.t) / 1000)} s` : TIME_UNKNOWN}`));
  } else {
    const list = toolCalls(session);
    write(list, () => list.map((c) => `${c.name || '(orphan result)'}  ${c.tool_use_id}  ${c.duration_ms === null ? (c.resultUuid === null ? 'no result' : TIME_UNKNOWN) : `${c.duration_ms} ms`}${c.is_error ? '  error' : ''}`));
  }
  return 0;
}
