import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { readFileSync } from 'node:fs';
import { systemErrorLine, UserError, type CliIO, type CliOutput } from './cli-io.ts';
import { INDEX_DAMAGED } from '../index-db/index-damage.ts';
import { outputWidth } from './fit-width.ts';
import { DESCRIPTION_MIN, formatHelpItem, formatHelpTail, helpWidth, styleHelpUsage } from './help-layout.ts';
import { safeText } from './safe-text.ts';
import type { CacheCliOptions } from './run-cache.ts';
import type { ExportCliOptions } from './run-export.ts';
import type { HtmlCliOptions } from './run-html.ts';
import type { IndexCliOptions, SearchCliOptions, SqlCliOptions } from './run-index.ts';
import type { LsOptions } from './run-ls.ts';
import type { RegistryOptions } from './run-registry.ts';
import type { ResumeCheckOptions } from './run-resume-check.ts';
import type { ServeCliOptions } from './run-serve.ts';
import type { ShowOptions } from './run-show.ts';
import type { StreamCliOptions } from './run-stream.ts';
import type { UsageCliOptions } from './run-usage.ts';
import type { ViewCliOptions } from './run-views.ts';
import type { WatchCliOptions } from './run-watch.ts';

export type { CliIO } from './cli-io.ts';

const VERSION = (
  JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

/** The examples after the top-level help: a command line and what it does (`formatHelpTail` fits them). */
const HELP_EXAMPLES: ReadonlyArray<readonly [string, string]> = [
  ['romp show ~/.claude/projects/-work-app/<session>.jsonl', 'outline of one session'],
  ['romp show 03eb5929 --full', 'the conversation of a session, by its id'],
  ['romp cat --latest --project .', "the newest session of this folder's project"],
  ['romp show --example', 'the bundled example'],
  ['romp json FILE --view context > session.json', 'the Session as JSON (what the model sees)'],
  ['romp turns FILE --json', 'one summary per turn: prompt, outcome, tools, usage, cost'],
  ['claude -p "hi" --output-format stream-json --verbose | romp stream', ''],
  ['romp usage --timezone Europe/Paris', 'tokens and USD of every session'],
  ['romp watch --latest --project .', 'the newest session of this project, live; then the next one'],
  ['romp html 03eb5929 -o session.html', 'the session as one self-contained page'],
  ['romp export 03eb5929 --format md > session.md', 'the session as Markdown, to paste or hand on'],
  ['romp serve', 'a local viewer on 127.0.0.1 (a free port), pages update live'],
  ['romp search "flaky test" --author human', 'what you typed about it, in every session (refreshes the index)'],
  [
    'romp sql "SELECT project, sum(cost_usd) FROM sessions GROUP BY 1"',
    'your own questions on the index (docs/index.md)',
  ],
];

/** The lines after the examples. */
const HELP_NOTES = [
  'Exit codes: 0 done (even with diagnostics), 1 romp doctor found lost lines, 2 bad usage, unreadable file or system error.',
  'Model and diagnostics: docs/model.md, docs/diagnostics.md.',
];

/**
 * The `romp` command line, testable: parses `argv`, writes to `io`, resolves to the exit code.
 *
 * - `romp show [FILES...] [--view full|context] [--session ID] [--json]`: the outline of one session
 *   (the bundled example when no file is given).
 * - `romp json [FILES...] [...]`: the Session as JSON on stdout, diagnostics on stderr.
 * - `romp stream [FILE|-] [--json] [--follow]`: the same from stream-json.
 * - `romp ls`, `romp sessions`, `romp register`, `romp resume`: Claude Code's sessions and romp's registry.
 * - `romp turns | segments | tools [FILES...] [--view full|context] [--json]`: a derived view (`turns`:
 *   one `summarizeTurn` per turn).
 * - `romp doctor FILES...`: a health report per transcript (exit 1 when lines were lost).
 * - `romp cache SESSION [--json] [--statusline]`: why each response wrote to the prompt cache, priced.
 * - `romp resume-check SESSION [--json] [--handoff FILE] [--write-fork DIR]`: what `claude --resume` will not load.
 * - `romp watch [SESSION...] [--latest] [--project DIR] [--session ID] [--json]`: a live outline of a session being
 *   written.
 * - `romp html SESSION [-o FILE]`: one self-contained HTML page of a session.
 * - `romp export SESSION [--format md|json]`: a session as readable Markdown, or its JSON;
 *   `romp export [SESSION...] --format otlp|parquet|ndjson`: traces or the lake (docs/lake.md).
 * - `romp serve [--port N]`: a local, read-only web viewer of every session, live.
 * - `romp index`, `romp search QUERY`, `romp sql "SELECT …"`: the SQLite index of every session, its
 *   full-text search, read-only SQL on it (docs/index.md).
 *
 * Each command's module is loaded when the command runs, so `romp show` does not pay for the watcher,
 * the usage workers or the stream decoder.
 *
 * Exit codes: 0 when the work was done (even with diagnostics), 1 when `romp doctor` found lost
 * lines, 2 for bad usage, a file that cannot be read (in every command), or a system error (`EACCES`,
 * `ENOSPC`, `EISDIR`, …): one `romp:` line on stderr naming it, never a stack trace.
 *
 * Everything written to `io.stdout` and `io.stderr` passes through {@link safeText} (LF kept): no
 * control character from a transcript, a stream or romp's home reaches the terminal raw, whatever the
 * printer (JSON stays exact: its raw DEL, C1 and bidi characters become `\uXXXX` escapes).
 *
 * @param argv the arguments after the program name
 * @param rawIO where to read and write
 * @param signal stops long-running commands (`romp watch`)
 * @returns the exit code
 */
export async function cli(argv: string[], rawIO: CliIO, signal?: AbortSignal): Promise<number> {
  const io = guarded(rawIO);
  let exitCode = 0;
  const program = rompProgram(
    io,
    (code) => {
      exitCode = code;
    },
    signal,
    argv[0],
  );

  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    // a damaged index (`markDamaged`, told by its code: the index's modules are not the bundle's) is the person's to
    // know of, in one line: the next `romp index` builds it again
    if (error instanceof UserError || (error as { code?: unknown } | undefined)?.code === INDEX_DAMAGED) {
      io.stderr.write(`romp: ${(error as Error).message}\n`);
      return 2;
    }
    const line = systemErrorLine(error);
    if (line === undefined) throw error;
    io.stderr.write(`romp: ${line}\n`);
    return 2;
  }
  return exitCode;
}

/**
 * The `romp` program as commander holds it: every command, its arguments and options, its action.
 * Used by `cli`, and by the test that checks each command's `--help` names its options.
 *
 * Given the first argument, and when it names a command, only that command is defined: defining the
 * 21 others, their options and help texts, cost 3.8 ms of CPU warm (more on a cold start) of
 * `romp show`'s 30–45 ms over `node -e 0`. Anything else (`--help`, `--version`, `help`, a misspelt command, which
 * commander answers with the nearest name) gets every command.
 * @param io where commands write (already guarded)
 * @param done receives a command's exit code when its action ends
 * @param signal stops long-running commands (`romp watch`)
 * @param first the first command-line argument, if any: the command to define alone when it is one
 * @returns the program, not yet parsed
 */
export function rompProgram(io: CliIO, done: (code: number) => void, signal?: AbortSignal, first?: string): Command {
  const wanted = (name: string): boolean => first === undefined || !COMMANDS.has(first) || first === name;
  const program = new Command('romp')
    .description('Read Claude Code sessions as Session → Turn → Atom → ContentBlock.')
    .version(VERSION)
    .exitOverride()
    // a usage error is one `romp:` line and a pointer to the help, as every other error, not the whole help
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
      outputError: (s, write) => write(s.replace(/^error: /, 'romp: ')),
      // help fits COLUMNS or the terminal as every other output, a column short of it; commander's 80 otherwise
      getOutHelpWidth: () => helpWidth(io.stdout),
      getErrHelpWidth: () => helpWidth(io.stderr),
    })
    // commander keeps a description whole when less than 40 columns are left for it: narrow terminals too,
    // and under its term when even 20 are not left (formatHelpItem); the usage line wraps too (styleHelpUsage)
    .configureHelp({ minWidthToWrap: DESCRIPTION_MIN, formatItem: formatHelpItem, styleUsage: styleHelpUsage })
    .showHelpAfterError('(add --help to see the options)')
    .addHelpText('after', () => formatHelpTail(HELP_EXAMPLES, HELP_NOTES, outputWidth(io.stdout) ?? 80));
  const home = (): Option => new Option('--romp-home <dir>', "romp's home folder (default: $ROMP_HOME, else ~/.romp)");
  const viewOption = (): Option =>
    new Option('--view <view>', 'history after a compaction: full (stitched) or context (what the model sees)')
      .choices(['full', 'context'])
      .default('full');
  const zone = (json = 'in --json as ISO times with its offset'): Option =>
    new Option('--timezone <zone>', `IANA zone the times are printed in, ${json} (default: this machine's)`).argParser(
      checkZone,
    );
  /** How the commands that read one session are told which (`loadSession`), and the zone of their times. */
  const naming = (command: Command, timezone: Option = zone()): Command =>
    command
      .argument(
        '[session...]',
        'transcript files of one session, a session id or a unique prefix of one, or - for standard input',
      )
      .option('--latest', 'the newest session (of --project when given)')
      .option('--project <dir>', "a project's sessions: its path (. = here) or its folder under the projects folder")
      .option(
        '--projects <dir>',
        "Claude Code's projects folder (default: $CLAUDE_CONFIG_DIR/projects, else ~/.claude/projects)",
      )
      .option('--session <rompUuid>', "the session's files from romp's registry")
      .option('--example', 'the bundled example session')
      .addOption(viewOption())
      .addOption(timezone)
      .addOption(home());
  const sessionCommand = (name: string, description: string, json: boolean): void => {
    if (!wanted(name)) return;
    // --json is the Session itself: the library's model, epoch ms
    const command = naming(
      program.command(name).description(description),
      zone(json ? 'not in this JSON (the Session: epoch ms)' : 'not in --json (the Session: epoch ms)'),
    );
    if (!json) {
      command
        .option('--full', 'the conversation as a person reads it: prompts, replies, tool calls with their results')
        .option('--no-color', 'no colours (also when NO_COLOR is set; colours only on a terminal)')
        .option('--no-pager', 'with --full on a terminal: print instead of opening $PAGER (less -FRX)');
    }
    command.option(
      '--json',
      json ? 'the default here (accepted, as on every command)' : 'print the Session as JSON instead (as `romp json`)',
    );
    command.addOption(
      new Option(
        '--turn <n>',
        json
          ? 'print only turn N (1-based, as romp turns numbers them) as JSON'
          : 'only turn N (1-based, as romp turns numbers them; romp search names it)',
      ).argParser(positive),
    );
    const extra = name === 'cat' ? { full: true } : json ? { json: true } : {};
    command.action(async (files: string[], options: ShowOptions) =>
      done(await (await import('./run-show.ts')).runShow(files, { ...options, ...extra }, io)),
    );
  };
  sessionCommand('show', 'print an outline of a session (one block per turn), or with --full the conversation', false);
  sessionCommand('cat', 'print the conversation of a session as a person reads it (romp show --full)', false);
  sessionCommand('json', 'print the Session as JSON on stdout, diagnostics on stderr', true);
  if (wanted('stream')) {
    program
      .command('stream')
      .description(
        'read stream-json (claude -p --output-format stream-json --verbose) and print the outline when it ends',
      )
      .argument('[file]', 'NDJSON file; - or nothing for standard input')
      .option('--json', 'print the Session as JSON instead of the outline')
      .option('--follow', 'print each turn as it ends (with --json: one Turn per line)')
      .addOption(zone('not in --json (the Session: epoch ms)'))
      .action(async (file: string | undefined, options: StreamCliOptions) =>
        done(await (await import('./run-stream.ts')).runStream(file, options, io)),
      );
  }
  if (wanted('watch')) {
    program
      .command('watch')
      .description(
        'follow a session as it is written: on a terminal the turn list redrawn in place, else the lines of the turns that change',
      )
      .argument(
        '[session...]',
        'transcript files of one session (waited for if not there yet), or a session id or a unique prefix of one',
      )
      .option(
        '--latest',
        'the newest session (of --project when given), then each new session as Claude Code starts it',
      )
      .option(
        '--project <dir>',
        "with --latest (or alone): a project's path (. = here) or its folder under the projects folder",
      )
      .option(
        '--projects <dir>',
        "Claude Code's projects folder (default: $CLAUDE_CONFIG_DIR/projects, else ~/.claude/projects)",
      )
      .option(
        '--session <rompUuid>',
        "the session's files from romp's registry (resume files registered later are followed)",
      )
      .addOption(zone("in --json the cache clock's as ISO times (the turns: epoch ms)"))
      .addOption(home())
      .option('--json', 'one NDJSON line per change: {changed, removed, turns, cache_clock}')
      .option('--poll', 'poll the files instead of file-system events')
      .action(async (files: string[], options: WatchCliOptions) =>
        done(await (await import('./run-watch.ts')).runWatch(files, options, io, signal)),
      );
  }
  for (const [view, description] of [
    ['turns', 'one summary per turn: opener, what was typed, how it ended (outcome), time, atoms, tools, tokens, cost'],
    ['segments', 'the segments of a session: each turn split at its inputs (prompts, decisions)'],
    ['tools', 'the tool calls of a session: each tool_use with its result, duration, error; orphans'],
  ] as const) {
    if (wanted(view))
      naming(program.command(view).description(description))
        .option('--json', 'print the view as JSON')
        .action(async (files: string[], options: ViewCliOptions) =>
          done(await (await import('./run-views.ts')).runView(view, files, options, io)),
        );
  }
  if (wanted('usage')) {
    program
      .command('usage')
      .description(
        'tokens and cost of every API response, each counted once, as a table per day, week, month, session, project or 5-hour block',
      )
      .argument('[report]', 'daily (default), weekly, monthly, session, project or blocks')
      .argument(
        '[files...]',
        "transcript files, session ids or unique prefixes of them, or - for standard input; with their sessions' subagent transcripts (<dir>/<id>/subagents/, or agent-*.jsonl beside them before 2.1.2) (default: every transcript under --projects)",
      )
      .option('--latest', 'only the newest session (of --project when given)')
      .option(
        '--project <dir>',
        "only a project's sessions: its path (. = here) or its folder under the projects folder",
      )
      .option(
        '--projects <dir>',
        "Claude Code's projects folder (default: $CLAUDE_CONFIG_DIR/projects, else ~/.claude/projects)",
      )
      .option('--no-subagents', 'with files: count only the files given, not their subagent transcripts')
      .addOption(
        new Option('--timezone <zone>', "IANA zone for the days and times (default: this machine's)").argParser(
          checkZone,
        ),
      )
      .option('--since <day>', 'only responses on or after this day (YYYYMMDD or YYYY-MM-DD, in the zone)')
      .option('--until <day>', 'only responses on or before this day')
      .option('--breakdown', 'a row per model under each row')
      .option(
        '--prices <file>',
        'JSON {model: {input, output, cache_write_5m, cache_write_1h, cache_read}} in USD per MTok over the built-in table; fields left out keep the built-in price',
      )
      .option(
        '--json',
        'print the report as JSON (without a report or day range: the totals by session, day and model)',
      )
      .addOption(home())
      .option('--no-index', "read every transcript, not romp index's usage of the files that did not change")
      .action(async (report: string | undefined, files: string[], options: UsageCliOptions) =>
        done(
          await (
            await import('./run-usage.ts')
          ).runUsage(report === undefined ? files : [report, ...files], options, io),
        ),
      );
  }
  const targetOptions = (command: Command): Command =>
    command
      .option('--latest', 'the newest session (of --project when given)')
      .option('--project <dir>', "the newest session of a project: its path (. for here) or its folder's name")
      .option(
        '--projects <dir>',
        "Claude Code's projects folder (default: $CLAUDE_CONFIG_DIR/projects, else ~/.claude/projects)",
      );
  if (wanted('html')) {
    targetOptions(
      program
        .command('html')
        .description(
          'write one session as a self-contained HTML page: timeline, chat, tool calls, diffs, subagents (docs/html.md)',
        )
        .argument('[session]', 'a transcript path, a session id or a unique prefix of one')
        .option(
          '-o, --output <file>',
          'write the page there (default: standard output); a long session is split: FILE, then FILE.part2.html, …',
        )
        .option(
          '--json',
          'with -o: print what was written as JSON ({"rompUuid","turns","truncated","files":[{"path","bytes"}]})',
        )
        .addOption(zone('not in --json (it holds no times)')),
    ).action(async (session: string | undefined, options: HtmlCliOptions) =>
      done(await (await import('./run-html.ts')).runHtml(session === undefined ? [] : [session], options, io)),
    );
  }
  if (wanted('export')) {
    targetOptions(
      program
        .command('export')
        .description(
          'write one session as readable Markdown or the Session JSON; sessions as OpenTelemetry traces (otlp) or a Parquet/NDJSON lake (docs/lake.md)',
        )
        .argument(
          '[sessions...]',
          'a transcript path, a session id or a unique prefix of one (otlp, parquet, ndjson: any number; none: the whole projects folder)',
        )
        .addOption(
          new Option(
            '--format <format>',
            'md: Markdown; json: the Session; otlp: OTLP/JSON traces; parquet / ndjson: the lake',
          )
            .choices(['md', 'json', 'otlp', 'parquet', 'ndjson'])
            .default('md'),
        )
        .addOption(viewOption())
        .option('-o, --output <file>', 'write there (default: standard output)')
        .option('--out <path>', 'otlp: the file to write (OTLP/JSON lines); parquet, ndjson: the lake folder')
        .option('--endpoint <url>', 'otlp: POST the traces to this OTLP/HTTP collector (its /v1/traces)')
        .option(
          '--include-content',
          'otlp: put replies, tool calls and their input, errors and the session name on the spans (no prompts)',
        )
        .option('--redact', 'mask secrets (secretlint recommended preset and romp rules) and drop tool results text')
        .option('--keep-tool-results', 'with --redact: keep tool results text (its secrets still masked)')
        .option(
          '--machine <name>',
          'the machine name in the lake partitions and trace resource (default: the host name)',
        )
        .option('--since <day>', 'parquet, ndjson: only sessions whose files changed on or after this day (YYYYMMDD)')
        .option('--json', 'otlp, parquet, ndjson: the export report as JSON')
        .addOption(zone('md only (json, otlp, parquet, ndjson keep epoch ms or their own format)')),
    ).action(async (sessions: string[], options: ExportCliOptions) =>
      done(await (await import('./run-export.ts')).runExport(sessions, options, io)),
    );
  }
  if (wanted('serve')) {
    program
      .command('serve')
      .description(
        'a local, read-only web viewer: the session list, and each session as the romp html page, updating live',
      )
      .option('--port <n>', 'port, 0 to 65535 (default: a free one, printed with the URL)', portNumber)
      .option('--host <host>', 'address to bind (default 127.0.0.1; any other is warned about)')
      .option(
        '--projects <dir>',
        "Claude Code's projects folder (default: $CLAUDE_CONFIG_DIR/projects, else ~/.claude/projects)",
      )
      .addOption(zone('on every page'))
      .option('--json', 'print the address as one JSON line, {"url","host","port"}, once the viewer listens')
      .action(async (options: ServeCliOptions) =>
        done(await (await import('./run-serve.ts')).runServe(options, io, signal)),
      );
  }
  const projectsOption = (): Option =>
    new Option(
      '--projects <dir>',
      "Claude Code's projects folder (default: $CLAUDE_CONFIG_DIR/projects, else ~/.claude/projects)",
    );
  if (wanted('index')) {
    program
      .command('index')
      .description(
        'build or refresh the SQLite index of every session ($ROMP_HOME/index.db): only what changed is read (docs/index.md)',
      )
      .addOption(projectsOption())
      .addOption(home())
      .option('--no-progress', 'no progress line (shown on a terminal: files, MB, ETA)')
      .option('--json', 'print what was done as JSON')
      .action(async (options: IndexCliOptions) => done(await (await import('./run-index.ts')).runIndex(options, io)));
  }
  if (wanted('search')) {
    program
      .command('search')
      .description(
        'full-text search of every session: what was typed, replied, and tools read and wrote (refreshes the index first); what a person typed ranks first, then the rest by bm25 (assistant text weighted 5, tool input and output 1); a common word ranks its newest 2,000 blocks of each (by time, the same after a rebuild)',
      )
      .argument(
        '<query...>',
        "words that must all be in one block (a part of a word or text without spaces is found as a substring, in what was typed or replied and a tool input's first 1,024 characters; in a tool output, whole words only)",
      )
      .addOption(
        new Option('--author <author>', 'only text by this author (tool output has none)').choices([
          'human',
          'sdk',
          'peer',
          'system',
        ]),
      )
      .option('--tool <name>', "only this tool's input and output (its name in any case: Bash, bash)")
      .option(
        '--project <dir>',
        "only a project's sessions: its path (. = here) or its folder under the projects folder",
      )
      .option('--since <day>', 'only from this day on (YYYY-MM-DD or YYYYMMDD, in the zone of --timezone)')
      .option('--until <day>', 'only up to this day, included')
      .addOption(new Option('-n, --limit <n>', 'at most N hits (default 20)').argParser(positive))
      .option('--all-branches', 'rewound branches too (default: the conversation as it stands)')
      .option('--no-refresh', 'search the index as it is, without refreshing it first')
      .option('--no-progress', 'no progress line while refreshing')
      .option('--no-color', 'no bold for the matches (also when NO_COLOR is set)')
      .addOption(projectsOption())
      .addOption(home())
      .addOption(zone())
      .option(
        '--json',
        'print the hits as a JSON array: each snippet as plain text, its matches as [start, end] in UTF-16 code units',
      )
      .action(async (query: string[], options: SearchCliOptions) =>
        done(await (await import('./run-index.ts')).runSearch(query, options, io)),
      );
  }
  if (wanted('sql')) {
    program
      .command('sql')
      .description('run one read-only SQL query on the index (tables: docs/index.md)')
      .argument(
        '<query...>',
        'a SELECT (or WITH … SELECT) statement; its words may come unquoted (quote it when it holds *, (, ), ; or quotes: the shell reads them)',
      )
      .addOption(home())
      .option('--json', 'print the rows as a JSON array of objects')
      .action(async (query: string[], options: SqlCliOptions) =>
        done(await (await import('./run-index.ts')).runSql(query.join(' '), options, io)),
      );
  }
  if (wanted('cache')) {
    program
      .command('cache')
      .description(
        'why each API response wrote to the prompt cache: expiry (human or work time), rewind, compaction, model or prompt change, cold start, growth; priced (docs/cache.md)',
      )
      .argument(
        '[session...]',
        'transcript files of one session, a session id or a unique prefix of one (with its subagents)',
      )
      .option('--latest', 'the newest session (of --project when given)')
      .option(
        '--project <dir>',
        "a project's newest session: its path (. = here) or its folder under the projects folder",
      )
      .option('--projects <dir>', "Claude Code's projects folder; without a session: every transcript in it")
      .option(
        '--statusline',
        'print the cache clock as JSON: time left before the cache expires and what a request after that re-writes (no session: read {"transcript_path"} on stdin, as a Claude Code status line)',
      )
      .option('--prices <file>', 'JSON prices over the built-in table, as romp usage --prices')
      .addOption(
        new Option(
          '--timezone <zone>',
          "IANA zone for the days and the clock's times (default: this machine's)",
        ).argParser(checkZone),
      )
      .addOption(home())
      .option('--json', 'print {total, causes, bySession, byDay}')
      .action(async (files: string[], options: CacheCliOptions) =>
        done(await (await import('./run-cache.ts')).runCache(files, options, io)),
      );
  }
  if (wanted('resume-check')) {
    program
      .command('resume-check')
      .description(
        'what claude --resume will not load: every turn of the full history missing from the resumed context, with its cause (docs/resume-check.md)',
      )
      .argument('[session...]', 'transcript files of one session, a session id or a unique prefix of one')
      .option('--latest', 'the newest session (of --project when given)')
      .option(
        '--project <dir>',
        "a project's newest session: its path (. = here) or its folder under the projects folder",
      )
      .option('--projects <dir>', "Claude Code's projects folder; without a session: check every session in it")
      .option(
        '--handoff <file>',
        'write a Markdown summary of the lost turns there (prompts, outcomes, files edited, last todo list)',
      )
      .option(
        '--write-fork <dir>',
        'write the full history as a new linear transcript in DIR, once the Agent SDK reader (getSessionMessages) loads it as intended',
      )
      .addOption(zone())
      .addOption(home())
      .option('--json', 'print {session, context_turns, full_turns, lost, causes} (with --projects: an array of them)')
      .action(async (files: string[], options: ResumeCheckOptions) =>
        done(await (await import('./run-resume-check.ts')).runResumeCheck(files, options, io)),
      );
  }
  if (wanted('doctor')) {
    program
      .command('doctor')
      .description(
        'check transcripts: diagnostics, orphaned parents, dead branches, compaction fallbacks, duplicate uuids (exit 1 when lines were lost)',
      )
      .argument('<files...>', 'transcript files or session ids (or unique prefixes of them)')
      .option('--json', 'print the reports as JSON')
      .action(async (files: string[], options: { json?: boolean }) =>
        done(await (await import('./run-doctor.ts')).runDoctor(files, options, io)),
      );
  }
  if (wanted('ls')) {
    program
      .command('ls')
      .description("list Claude Code's sessions, newest first: last activity, prompts, project, id, title")
      .option(
        '--projects <dir>',
        "Claude Code's projects folder (default: $CLAUDE_CONFIG_DIR/projects, else ~/.claude/projects)",
      )
      .option('--project <dir>', 'only this project: its path (. = here) or its folder under the projects folder')
      .addOption(new Option('-n, --limit <n>', 'only the newest N sessions').argParser(positive))
      .addOption(zone())
      .option('--json', 'print the list as JSON')
      .addOption(home())
      .option('--no-index', "read every transcript, not romp index's listings of the files that did not change")
      .action(async (options: LsOptions) => done(await (await import('./run-ls.ts')).runLs(options, io)));
  }
  if (wanted('sessions')) {
    program
      .command('sessions')
      .description("list romp's registered sessions")
      .addOption(home())
      .option('--json', 'print the entries as JSON')
      .action(async (options: RegistryOptions) =>
        done(await (await import('./run-registry.ts')).runSessions(options, io)),
      );
  }
  if (wanted('register')) {
    program
      .command('register')
      .description('register a session: its rompUuid and transcript files (the first is the anchor)')
      .argument('<rompUuid>', "the session's stable identity")
      .argument('<files...>', 'its transcript files')
      .option('--name <name>', 'display name')
      .option('--color <color>', 'display colour (default: derived from the rompUuid)')
      .option('--dir <dir>', 'working directory')
      .addOption(home())
      .option('--json', 'print the entry as JSON')
      .action(async (rompUuid: string, files: string[], options: RegistryOptions) =>
        done(await (await import('./run-registry.ts')).runRegister(rompUuid, files, options, io)),
      );
  }
  if (wanted('resume')) {
    program
      .command('resume')
      .description('record a resume: add the new transcript file to the session and move its leaf there')
      .argument('<rompUuid>', "the session's stable identity")
      .argument('<file>', 'the new transcript file')
      .addOption(home())
      .option('--json', 'print the entry as JSON')
      .action(async (rompUuid: string, file: string, options: RegistryOptions) =>
        done(await (await import('./run-registry.ts')).runResume(rompUuid, file, options, io)),
      );
  }
  return program;
}

/** Every command's name, as {@link rompProgram} defines them (a test checks the two agree). */
export const COMMANDS: ReadonlySet<string> = new Set([
  'show',
  'cat',
  'json',
  'stream',
  'watch',
  'turns',
  'segments',
  'tools',
  'usage',
  'html',
  'export',
  'serve',
  'index',
  'search',
  'sql',
  'cache',
  'resume-check',
  'doctor',
  'ls',
  'sessions',
  'register',
  'resume',
]);

/**
 * `io` with every write made safe for a terminal, newlines kept. `styled` writes unchanged: for a
 * printer that escaped every transcript text itself and adds colour codes of its own. The stream's
 * width, height and `isTTY` are read through, and its `resize` events (`onResize`).
 */
function guarded(io: CliIO): CliIO {
  const safe = (stream: CliOutput): CliOutput => {
    const out: CliOutput = {
      write: (text: string) => stream.write(safeText(text, { keepNewlines: true })),
      styled: (text: string) => stream.write(text),
    };
    Object.defineProperty(out, 'columns', { get: () => stream.columns });
    Object.defineProperty(out, 'rows', { get: () => stream.rows });
    Object.defineProperty(out, 'isTTY', { get: () => stream.isTTY });
    const events = stream as Partial<Pick<NodeJS.WriteStream, 'on' | 'off'>>;
    if (stream.onResize !== undefined)
      out.onResize = (listener) => (stream.onResize as CliOutput['onResize'] & {})(listener);
    else if (typeof events.on === 'function' && typeof events.off === 'function')
      out.onResize = (listener) => {
        events.on?.('resize', listener);
        return () => events.off?.('resize', listener);
      };
    return out;
  };
  // a getter: `process.stdin` is created when first read, and only `romp stream` reads it
  return Object.defineProperty({ stdout: safe(io.stdout), stderr: safe(io.stderr) }, 'stdin', {
    get: () => io.stdin,
    enumerable: true,
  });
}

/** `--limit`: a whole number above 0, else a usage error (exit 2). */
function positive(value: string): number {
  const n = Number(value);
  if (!/^[0-9]+$/.test(value) || n < 1) throw new InvalidArgumentError(`${value} is not a whole number above 0`);
  return n;
}

/** `romp serve --port`: a whole number a TCP port can be (0: a free one), else a usage error (exit 2). */
function portNumber(value: string): number {
  const n = Number(value);
  if (!/^[0-9]+$/.test(value) || n > 65535) throw new InvalidArgumentError(`${value} is not a port (0 to 65535)`);
  return n;
}

/** `--timezone`: an IANA zone `Intl` knows, else a usage error (exit 2). */
function checkZone(value: string): string {
  try {
    new Intl.DateTimeFormat('en', { timeZone: value });
  } catch {
    throw new InvalidArgumentError(`${value} is not an IANA time zone (e.g. Europe/Paris, America/New_York, UTC)`);
  }
  return value;
}
