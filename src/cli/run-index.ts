import { SingleBar } from 'cli-progress';
import Table from 'cli-table3';
import stringWidth from 'string-width';
import { resolve } from 'node:path';
import type { Diagnostic } from '../diagnostics/diagnostic.ts';
import { defaultProjectsDir } from '../discover/list-claude-sessions.ts';
import type { SqlValue } from '../index-db/database.ts';
import { openIndexForRead } from '../index-db/open-index.ts';
import type { RefreshReport } from '../index-db/refresh-index.ts';
import { queryWords, searchIndex, type SearchFilter } from '../index-db/search-index.ts';
import { markMatches } from '../text/match-marks.ts';
import { indexPath, updateIndex } from '../index-db/update-index.ts';
import { rompHomeFolder } from './romp-home-folder.ts';
import { reportSkipped, UserError, type CliIO } from './cli-io.ts';
import { checkProjectsFolder } from './check-projects-folder.ts';
import { dayOption, dayStartIn } from './day-option.ts';
import { timeFormat } from './format-time.ts';
import { isoTime, withIsoTimes } from './iso-time.ts';
import { projectFolder } from './resolve-targets.ts';
import { safeText } from './safe-text.ts';
import { DIAGNOSTICS_SHOWN, writeDiagnostics } from './write-diagnostics.ts';
import { unreadLines } from '../index-db/unread-lines.ts';
import { formatCount, plural } from '../text/format-count.ts';
import { fitLines, fitWidth, keepEnd, outputWidth, shareWidth, textWidth, wrapLines } from './fit-width.ts';
import { countStatements } from '../index-db/one-statement.ts';
import { TITLE_WIDTH, titleText } from './title-text.ts';
import { maxOf } from '../model/extremes.ts';

/** Options of `romp index`. */
export interface IndexCliOptions {
  projects?: string;
  rompHome?: string;
  json?: boolean;
  /** `--no-progress` sets it false; progress shows only when stderr is a terminal. */
  progress?: boolean;
}

/** Options of `romp search`. */
export interface SearchCliOptions extends IndexCliOptions {
  author?: string;
  tool?: string;
  project?: string;
  since?: string;
  until?: string;
  limit?: number;
  /** `--no-refresh` sets it false. */
  refresh?: boolean;
  allBranches?: boolean;
  timezone?: string;
  color?: boolean;
}

/** Options of `romp sql`. */
export interface SqlCliOptions {
  rompHome?: string;
  json?: boolean;
}

/**
 * `romp index [--projects DIR]`: builds or refreshes `$ROMP_HOME/index.db` from every transcript under
 * the projects folder (`updateIndex`), with files, MB and ETA on a terminal; prints what it did (`--json`:
 * the `RefreshReport`). What it skipped (an entry the walk left out, a file it cannot read, one that is not a
 * transcript) is named on stderr, once each (`romp: skipped PATH: why`), and the exit code stays 0: the rows of a file
 * it cannot read are kept. A file it read whose lines could not all be read (`unreadLines`: a torn or over-long line)
 * is named on stderr too, with how many and their codes (`--json`: `unreadLines`); a later run that does not read it
 * again does not name it again. Waits, saying so, while another `romp index` writes.
 * @param options projects folder, romp home, json
 * @param io where to write
 * @returns the exit code
 */
export async function runIndex(options: IndexCliOptions, io: CliIO): Promise<number> {
  const started = Date.now();
  const { report, path } = await refresh(options, io, false);
  if (report === undefined) return 0;
  const { read, ...counts } = report;
  const db = openIndexForRead(path);
  const unread = typeof db === 'string' ? [] : unreadLines(db, read);
  if (typeof db !== 'string') db.close();
  if (options.json === true) {
    io.stdout.write(`${JSON.stringify({ index: path, ...counts, unreadLines: unread, ms: Date.now() - started })}\n`);
    return 0;
  }
  const lines =
    unread.length === 0
      ? []
      : [
          `romp: ${plural(unread.length, 'transcript')} read ${unread.length === 1 ? 'has' : 'have'} lines that could not be read, left out of the index (romp doctor FILE lists them):`,
          ...unread
            .slice(0, DIAGNOSTICS_SHOWN)
            .map((u) => `  ${u.path}: ${plural(u.lines, 'line')} (${u.codes.join(', ')})`),
          ...(unread.length > DIAGNOSTICS_SHOWN
            ? [`  … and ${formatCount(unread.length - DIAGNOSTICS_SHOWN)} more`]
            : []),
        ];
  // wrapLines makes each transcript path safe to print
  for (const line of wrapLines(lines, outputWidth(io.stderr))) io.stderr.write(`${line}\n`);
  const mb = (report.bytesRead / 1e6).toFixed(1);
  const skipped = report.skipped.length > 0 ? ` (${report.skipped.length} skipped)` : '';
  io.stdout.write(
    `${path}: ${plural(report.files, 'transcript')}${skipped}: ${report.added} added, ${report.appended} appended, ${report.reread} read again, ${report.removed} removed, ${report.unchanged} unchanged; ${mb} MB read, ${plural(report.turnsWritten, 'turn')} written in ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
  );
  return 0;
}

/**
 * `romp search QUERY...`: refreshes the index (unless `--no-refresh`; when another process is writing it,
 * searches it as it is) and prints the hits (`searchIndex`), best first: time, project, title, turn,
 * who wrote it, the snippet with each match marked (bold on a terminal, else `«…»`; every transcript
 * character escaped), and the commands that open it. `--json`: an array of `SearchHit`, its `snippet` plain
 * text and `matches` the `[start, end)` of each match in it (UTF-16 code units), its `t` an ISO string with
 * the zone's offset (`isoTime`).
 * @param words the query's words
 * @param options filters, refresh, romp home, json
 * @param io where to write
 * @param cwd what `--project .` means
 * @returns the exit code
 */
export async function runSearch(
  words: string[],
  options: SearchCliOptions,
  io: CliIO,
  cwd: string = process.cwd(),
): Promise<number> {
  const query = words.join(' ').trim();
  // a query of control characters only finds nothing, as one of spaces only: a usage error either way
  if (queryWords(query).length === 0) throw new UserError('search for what? give one or more words');
  const filter: SearchFilter = {
    limit: options.limit ?? 20,
    ...(options.allBranches === true ? { allBranches: true } : {}),
  };
  if (options.author !== undefined) filter.author = options.author;
  if (options.tool !== undefined) filter.tool = options.tool;
  if (options.project !== undefined)
    filter.projectFolder = await projectFolder(options.projects ?? defaultProjectsDir(), options.project, cwd);
  if (options.since !== undefined) filter.since = dayStartIn(dayOption('--since', options.since), options.timezone);
  if (options.until !== undefined)
    filter.until = dayStartIn(nextDay(dayOption('--until', options.until)), options.timezone);
  // days the wrong way round select nothing: said, not answered with "no hits"
  if (filter.since !== undefined && filter.until !== undefined && filter.since >= filter.until)
    throw new UserError(`--since ${options.since ?? ''} is after --until ${options.until ?? ''}: no day is in both`);
  const path =
    options.refresh === false ? indexPath(rompHomeFolder(options.rompHome)) : (await refresh(options, io, true)).path;
  const db = openIndexForRead(path);
  if (typeof db === 'string') throw new UserError(`${path}: ${db}; run romp index`);
  try {
    const hits = searchIndex(db, query, filter);
    if (options.json === true) {
      const iso = isoTime(options.timezone);
      io.stdout.write(`${JSON.stringify(hits.map((h) => withIsoTimes(h, ['t'], iso)))}\n`);
      return 0;
    }
    const time = timeFormat(options.timezone);
    const bold =
      io.stdout.isTTY === true &&
      options.color !== false &&
      process.env['NO_COLOR'] === undefined &&
      io.stdout.styled !== undefined;
    const out = (text: string): unknown =>
      bold ? (io.stdout.styled as (t: string) => unknown)(text) : io.stdout.write(text);
    const columns = outputWidth(io.stdout);
    if (hits.length > 0) io.stdout.write(`${plural(hits.length, 'hit')} · times in ${time.zone}\n`);
    for (const h of hits) {
      const who = [h.author ?? h.role, h.tool].filter((x) => x !== null).join(' ');
      const turn = h.turn === null ? (h.on_path ? 'no turn' : 'rewound') : `turn ${h.turn}`;
      const show = `romp show ${safeText(h.path)}${h.turn === null ? '' : ` --turn ${h.turn}`}`;
      const resume = `claude --resume ${safeText(h.resume_id)}`;
      const commands = `  ${show}   ${resume}`;
      const [head, snippet] = fitLines(
        [
          hitHead(
            `${time.format(h.t)}  ${turn}  ${safeText(who)}  `,
            safeText(h.project),
            titleText(h.title, h.first_prompt),
            h.session_id,
            columns,
          ),
          // each match between \u0002 and \u0003 (no escaped text holds them), made bold or «…» once cut to the width
          `  ${markMatches({ text: h.snippet, matches: h.matches }, '\u0002', '\u0003', safeText)}`,
        ],
        columns,
      );
      // the two commands on a line of their own each when together they would not fit; never cut: a command cut
      // to the width would not run (the terminal wraps a longer one)
      const rest = columns === undefined || commands.length < columns ? [commands] : [`  ${show}`, `  ${resume}`];
      const marked = (snippet ?? '')
        .replaceAll('\u0002', bold ? '\u001b[1m' : '«')
        .replaceAll('\u0003', bold ? '\u001b[22m' : '»');
      // a match cut at the width closes its bold at the end of the line
      out(
        `${[head, `${marked}${bold && marked.lastIndexOf('\u001b[1m') > marked.lastIndexOf('\u001b[22m') ? '\u001b[22m' : ''}`, ...rest].join('\n')}\n`,
      );
    }
    if (hits.length === 0) io.stderr.write(`no hits for ${query}\n`);
    return 0;
  } finally {
    db.close();
  }
}

/**
 * A search hit's first line: its time, turn and who wrote it first, then the session's project and title or first
 * prompt (`titleText`; else its id), at most {@link TITLE_WIDTH} columns of it.
 * Too wide for the width, the project keeps the end of its path (in what is left, 12 columns at least) and a session
 * with neither title nor prompt shows its id's first 8 characters (the `claude --resume` line under it has the whole
 * id), so that the fields before them are never cut; `fitLines` cuts what is still too long.
 * @param fixed the time, turn and author, with the gap after them (already `safeText`)
 * @param project the project (already `safeText`)
 * @param title the session's title or first prompt (`titleText`), `""` without either
 * @param id the session's id
 * @param columns the width, or undefined (a pipe: the line whole)
 * @returns the line
 */
function hitHead(fixed: string, project: string, title: string, id: string, columns: number | undefined): string {
  const named = title === '' ? undefined : fitWidth(safeText(title), TITLE_WIDTH);
  const whole = `${fixed}${project}  ${named ?? safeText(id)}`;
  if (columns === undefined || [...whole].length <= columns - 1) return whole;
  const label = named ?? safeText(id.slice(0, 8));
  const room = columns - 1 - [...fixed].length - 2 - Math.min([...label].length, 20);
  return `${fixed}${keepEnd(project, Math.max(12, room))}  ${label}`;
}

/**
 * `romp sql "SELECT …"`: one read-only statement on the index (the connection refuses writes, and a
 * statement that returns no rows is refused before it runs), as a table or `--json` (an array of row
 * objects). The schema is docs/index.md's.
 * @param sql the statement
 * @param options romp home, json
 * @param io where to write
 * @returns the exit code
 */
export async function runSql(sql: string, options: SqlCliOptions, io: CliIO): Promise<number> {
  const path = indexPath(rompHomeFolder(options.rompHome));
  const db = openIndexForRead(path);
  if (typeof db === 'string') throw new UserError(`${path}: ${db}; run romp index`);
  try {
    let result;
    try {
      const statements = countStatements(sql);
      if (statements === 'none')
        throw new UserError('romp sql: give a query, e.g. romp sql "SELECT count(*) FROM sessions"');
      if (statements === 'many')
        throw new UserError(
          'romp sql runs one statement at a time: the text holds more than one (a ";" before more SQL)',
        );
      if (!db.readsOnly(sql))
        throw new UserError(
          'romp sql runs read-only queries (SELECT, WITH … SELECT): the index is rebuilt by romp index only',
        );
      result = db.query(sql);
    } catch (error) {
      if (error instanceof UserError) throw error;
      throw new UserError(`sql: ${(error as Error).message}`);
    }
    const cell = (v: SqlValue): string | number | null =>
      v instanceof Uint8Array
        ? Buffer.from(v).toString('hex')
        : typeof v === 'bigint'
          ? v.toString()
          : typeof v === 'boolean'
            ? Number(v)
            : v;
    if (options.json === true) {
      // a bigint is printed as its digits: a JSON number, exact (JSON.stringify has no way to write one)
      const json = (v: SqlValue): string => (typeof v === 'bigint' ? v.toString() : JSON.stringify(cell(v)));
      const objects = result.rows.map((row) => {
        const o = new Map<string, string>();
        result.columns.forEach((c, i) => o.set(c, json(row[i] as SqlValue)));
        return `{${[...o].map(([c, v]) => `${JSON.stringify(c)}:${v}`).join(',')}}`;
      });
      io.stdout.write(`[${objects.join(',')}]\n`);
      return 0;
    }
    const head = result.columns.map((c) => safeText(c));
    const body = result.rows.map((row) => row.map((v) => safeText(String(cell(v) ?? 'NULL'))));
    // on a width, the widest text cells are cut first until the table fits (each column padded and bordered: 3
    // more); a column of numbers is never cut
    const columns = outputWidth(io.stdout);
    const natural = head.map((h, i) =>
      maxOf(
        body.map((r) => textWidth(r[i] as string)),
        textWidth(h),
      ),
    );
    const numeric = head.map((_, i) =>
      result.rows.every((r) => r[i] === null || typeof cell(r[i] as SqlValue) === 'number'),
    );
    const texts = natural.filter((_, i) => numeric[i] !== true);
    const room =
      (columns ?? Infinity) -
      1 -
      (3 * head.length + 1) -
      natural.reduce((n, w, i) => (numeric[i] === true ? n + w : n), 0);
    const shared = columns === undefined ? texts : shareWidth(texts, Math.max(texts.length, room));
    const widths = natural.map((w, i) => (numeric[i] === true ? w : (shared.shift() as number)));
    writeTable(
      io,
      head.map((h, i) => fitWidth(h, widths[i] as number)),
      body.map((row) => row.map((c, i) => fitWidth(c, widths[i] as number))),
    );
    io.stdout.write(`(${result.rows.length} row${result.rows.length === 1 ? '' : 's'})\n`);
    return 0;
  } finally {
    db.close();
  }
}

/** Rows of one cli-table3 table: it draws a table by spreading an array of all its lines into a call, and one of about
 * 120,000 rows overflows the stack (`RangeError: Maximum call stack size exceeded`). */
const TABLE_ROWS = 10_000;

/**
 * `romp sql`'s table: a header row, then a row per result row, each cell one line already fitted to its column's width.
 * More rows than {@link TABLE_ROWS} are drawn as tables of that many, of the same column widths, joined into one
 * (each one's top border and header dropped, a row separator between them), written one after the other.
 * @param io where to write
 * @param head the header cells
 * @param body the rows' cells
 */
function writeTable(io: CliIO, head: string[], body: string[][]): void {
  // each column as wide as one table of every row would make it: cli-table3 measures with string-width, which counts
  // some characters (☕, ⭐) wider than `textWidth` does, and cuts a cell wider than its column
  const colWidths =
    body.length > TABLE_ROWS
      ? head.map(
          (h, i) =>
            maxOf(
              body.map((r) => stringWidth(r[i] as string)),
              stringWidth(h),
            ) + 2,
        )
      : undefined;
  for (let at = 0; at === 0 || at < body.length; at += TABLE_ROWS) {
    const table = new Table({
      head,
      style: { head: [], border: [] },
      ...(colWidths === undefined ? {} : { colWidths }),
    });
    for (const row of body.slice(at, at + TABLE_ROWS)) table.push(row);
    const lines = table.toString().split('\n');
    const last = at + TABLE_ROWS >= body.length;
    // lines 0-2: the top border, the header, the separator under it (a row separator too)
    const part = at === 0 ? lines : [lines[2] as string, ...lines.slice(3)];
    io.stdout.write(`${(last ? part : part.slice(0, -1)).join('\n')}\n`);
  }
}

/** Runs a refresh with progress on a terminal; index diagnostics (not the transcripts') on stderr. */
async function refresh(
  options: IndexCliOptions,
  io: CliIO,
  noWait: boolean,
): Promise<{ report: RefreshReport | undefined; path: string }> {
  const path = indexPath(rompHomeFolder(options.rompHome));
  const projectsDir = options.projects ?? defaultProjectsDir();
  // an unreadable folder would look empty, and an empty folder removes every row
  await checkProjectsFolder(projectsDir);
  const show = options.progress !== false && process.stderr.isTTY === true;
  const bar = show
    ? new SingleBar({
        format: 'index {bar} {value}/{total} files | {mb}/{totalMb} MB | ETA {eta_formatted}',
        stream: process.stderr,
        clearOnComplete: true,
      })
    : undefined;
  const diagnostics: Diagnostic[] = [];
  let started = false;
  try {
    const report = await updateIndex(path, {
      projectsDir,
      noWait,
      onDiagnostic: (d) => diagnostics.push(d),
      onWait: () => io.stderr.write(`romp: another romp index is writing ${path}; waiting for it\n`),
      onProgress: (p) => {
        const payload = { mb: (p.bytes / 1e6).toFixed(0), totalMb: (p.totalBytes / 1e6).toFixed(0) };
        if (!started) bar?.start(p.totalFiles, 0, payload);
        started = true;
        bar?.update(p.files, payload);
      },
    });
    // the bar put away first: it clears its line and goes back to where it started when it stops
    bar?.stop();
    if (report === undefined) io.stderr.write(`romp: another romp index is writing ${path}; searching it as it is\n`);
    else if (report.formerProjectsDir !== undefined) {
      // one index per romp home: what another folder's refresh removed is said, not done silently
      const line = `romp: ${path} held the sessions of ${report.formerProjectsDir}; now of ${resolve(projectsDir)} (${plural(report.removed, 'transcript')} of the other folder removed; --romp-home keeps an index of its own)`;
      for (const wrapped of wrapLines([line], outputWidth(io.stderr))) io.stderr.write(`${wrapped}\n`);
    }
    for (const entry of report?.skipped ?? []) reportSkipped(entry, io);
    return { report, path };
  } finally {
    bar?.stop();
    if (diagnostics.length > 0) writeDiagnostics(io, diagnostics);
  }
}

/** The day after a `YYYY-MM-DD` day, `YYYY-MM-DD`. */
function nextDay(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}
