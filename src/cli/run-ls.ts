import { TITLE_WIDTH, titleText } from './title-text.ts';
import { defaultProjectsDir, listClaudeSessions, type ClaudeSessionInfo } from '../discover/list-claude-sessions.ts';
import { storedListings } from '../index-db/listings.ts';
import { reportSkipped, reportUnreadable, type CliIO } from './cli-io.ts';
import { checkProjectsFolder } from './check-projects-folder.ts';
import { timeFormat, type TimeFormat } from './format-time.ts';
import { isoTime, withIsoTimes } from './iso-time.ts';
import { projectFolder } from './resolve-targets.ts';
import { readIndex } from './read-index.ts';
import { safeText } from './safe-text.ts';
import { fitLines, fitWidth, keepEnd, outputWidth, wrapLines } from './fit-width.ts';
import { plural } from '../text/format-count.ts';
import { maxOf } from '../model/extremes.ts';

/** Options of `romp ls`. */
export interface LsOptions {
  projects?: string;
  /** The project's real path (`.` = here) or its folder name under the projects folder. */
  project?: string;
  /** At most this many sessions (the newest). */
  limit?: number;
  timezone?: string;
  json?: boolean;
  /** romp's home, where the index is (`index.db`). */
  rompHome?: string;
  /** `false` (`--no-index`): read every transcript, not the index's listings. */
  index?: boolean;
}

/** On a width, the project column keeps the end of a longer path (`…/app/server`), this long at most. */
const PROJECT_WIDTH = 32;

/**
 * `romp ls`: Claude Code's sessions, newest first, as aligned columns under a header: last activity
 * (in `--timezone`, else local; `*` when it is the file's mtime, no line near the end having a time),
 * prompts, subagents, the project's real folder (its `cwd`; the folder's name when no line has one),
 * id, title or first prompt, cut to fit the width (`outputWidth`: `COLUMNS`, the terminal's; whole
 * in a pipe). `--limit N` keeps the newest N; `--json` prints the list (`ClaudeSessionInfo`, `first`
 * and `last` as ISO strings with the zone's offset: `isoTime`). Entries left out (a FIFO, a link out of
 * the folder) are named on stderr; a transcript that cannot be read is listed, named on stderr, exit 2.
 * With romp's index (`romp index`), a file that still has the stamp its listing was read from is not
 * read again (`storedListings`); any other file is read as without the index: the same output.
 * @param options projects folder, project (real path or folder name), limit, zone, json
 * @param io where to write (the width of stdout fits the table)
 * @param cwd what `--project .` means
 * @returns the exit code
 */
export async function runLs(options: LsOptions, io: CliIO, cwd: string = process.cwd()): Promise<number> {
  const projectsDir = options.projects ?? defaultProjectsDir();
  await checkProjectsFolder(projectsDir);
  const folder = options.project === undefined ? undefined : await projectFolder(projectsDir, options.project, cwd);
  const db = options.index === false ? undefined : await readIndex(options.rompHome);
  let list: ClaudeSessionInfo[];
  // the sessions past `-n`: a short id must tell them apart too
  const past: ClaudeSessionInfo[] = [];
  try {
    list = await listClaudeSessions({
      ...(options.projects === undefined ? {} : { projectsDir: options.projects }),
      ...(folder === undefined ? {} : { project: folder }),
      ...(db === undefined ? {} : { stored: storedListings(db) }),
      ...(options.limit === undefined ? {} : { limit: options.limit }),
      onSkipped: (s) => reportSkipped(s, io),
      onPast: (s) => past.push(s),
    });
  } finally {
    db?.close();
  }
  if (options.json === true) {
    const iso = isoTime(options.timezone);
    io.stdout.write(`${JSON.stringify(list.map((s) => withIsoTimes(s, ['first', 'last'], iso)))}\n`);
  } else if (list.length === 0) io.stdout.write(`no sessions under ${safeText(projectsDir)}\n`);
  else io.stdout.write(formatLs(list, timeFormat(options.timezone), outputWidth(io.stdout), [...list, ...past]));
  return reportUnreadable(
    list.flatMap((s) => (s.error === undefined ? [] : [{ file: s.path, message: `cannot read: ${s.error}` }])),
    io,
  );
}

/** The fewest characters of a session id the table shows when the whole id does not fit (as `git log --oneline`);
 * an id of at most 12 (not a uuid: a file named by hand) stays whole. */
const SHORT_ID = 8;

/** The title keeps at least this many columns before the table shortens the session ids; below 10 (the title's
 * least) with short ids too, each session takes a few lines instead (`stackedLs`). */
const TITLE_ROOM = 20;

/**
 * The table of `romp ls`: a header row and a row per session, columns separated by two spaces, every
 * transcript text made safe (`safeText`) before it is measured. On a width (`outputWidth`) the project is cut to
 * its last 32 characters (down to 12 to leave the title 20); when the title would still have under 20 columns the
 * ids are shortened to their first 8 characters (more where two listed ids share them: `uniquePrefixes`; every
 * command takes an id's prefix), and when even then the title would have under 10, each session takes three lines
 * instead (`stackedLs`). In a pipe every value is whole but the title, cut to 200 columns (`TITLE_WIDTH`)
 * everywhere. The `*` note is wrapped between words (`wrapLines`).
 * @param list the sessions
 * @param time the time printer
 * @param columns the width to fit (`outputWidth`); undefined: lines kept whole
 * @param known the sessions a short id must tell apart (default `list`; `romp ls -n 5` passes all it listed)
 * @returns the text, a line per row
 */
export function formatLs(
  list: readonly ClaudeSessionInfo[],
  time: TimeFormat,
  columns?: number,
  known: readonly ClaudeSessionInfo[] = list,
): string {
  const rows = list.map((s) => [
    `${time.format(s.last)}${s.lastFrom === 'mtime' ? '*' : ''}`,
    String(s.prompts),
    s.subagents.length > 0 ? `+${s.subagents.length}` : '',
    safeText(s.cwd || s.project),
    s.id,
    fitWidth(safeText(titleCell(s)), TITLE_WIDTH),
  ]);
  const head = [`last (${time.zone})`, 'prompts', 'agents', 'project', 'session', 'title or first prompt'];
  const measure = (): number[] =>
    head.slice(0, -1).map((h, i) =>
      maxOf(
        rows.map((r) => (r[i] as string).length),
        h.length,
      ),
    );
  // the columns before the title but the project's, with their gaps; a line ends a column short of the width
  const others = (): number => measure().reduce((n, w, i) => (i === 3 ? n : n + w + 2), 2);
  if (columns !== undefined) {
    if (columns - 1 - others() - TITLE_ROOM < 12) {
      const short = uniquePrefixes([...list, ...known].map((s) => s.id));
      rows.forEach((row, i) => (row[4] = short[i] as string));
    }
    if (columns - 1 - others() - 12 < 10) return stackedLs(rows, time.zone, columns);
    // the project keeps the end of its path, 32 characters at most, fewer (12 at the least) for a title of 20
    const project = Math.min(PROJECT_WIDTH, Math.max(12, columns - 1 - others() - TITLE_ROOM));
    for (const row of rows) row[3] = keepEnd(row[3] as string, project);
  }
  const widths = measure();
  const used = widths.reduce((n, w) => n + w + 2, 0);
  const room = columns === undefined ? Infinity : Math.max(10, columns - 1 - used);
  const right = new Set([1, 2]);
  const line = (cells: string[]): string =>
    cells
      .map((c, i) =>
        i === cells.length - 1
          ? fitWidth(c, room)
          : right.has(i)
            ? c.padStart(widths[i] as number)
            : c.padEnd(widths[i] as number),
      )
      .join('  ')
      .trimEnd();
  return [...fitLines([line(head), ...rows.map(line)], columns), ...mtimeNote(rows, columns)]
    .map((l) => `${l}\n`)
    .join('');
}

/**
 * What the title column says of a session: its marks (`(orphan subagent)`, `(unreadable)`, `(empty)`: a file of 0
 * bytes, a session Claude Code is creating) and its title or first prompt (its first 800 characters), every run of
 * white space one space, none at either end (a session with a mark and no title ends at its mark).
 * @param s the session
 * @returns the text, not yet made safe nor cut
 */
function titleCell(s: ClaudeSessionInfo): string {
  const marks = [
    s.orphan === true ? '(orphan subagent)' : '',
    s.error !== undefined ? '(unreadable)' : s.size === 0 ? '(empty)' : '',
  ];
  return [...marks, titleText(s.title, s.firstPrompt)].filter((x) => x !== '').join(' ');
}

/**
 * `romp ls` on a terminal too narrow for its table: a heading that names the zone, then three lines a session
 * (time, prompts and subagents; the id and the project, keeping its end; the title), each cut to the width.
 * @param rows the table's cells (time, prompts, agents, project, id, title), made safe
 * @param zone the times' zone
 * @param columns the width
 * @returns the text
 */
function stackedLs(rows: readonly string[][], zone: string, columns: number): string {
  const width = Math.max(10, columns - 1);
  const lines = rows.flatMap(([last, prompts, agents, project, id, title]) => [
    fitWidth(`${last}  ${plural(Number(prompts), 'prompt')}${agents === '' ? '' : `  ${agents} agents`}`, width),
    fitWidth(`  ${id}  ${keepEnd(project as string, Math.max(2, width - 4 - (id as string).length))}`, width),
    ...(title === '' ? [] : [`  ${fitWidth(title as string, width - 2)}`]),
  ]);
  return [...wrapLines([`sessions, newest first (times in ${zone})`], columns), ...lines, ...mtimeNote(rows, columns)]
    .map((l) => `${l}\n`)
    .join('');
}

/** The note under a listing where a time is the file's mtime (`*`): prose, wrapped between words. */
function mtimeNote(rows: readonly string[][], columns: number | undefined): string[] {
  return rows.some((r) => r[0]?.endsWith('*') === true)
    ? wrapLines(["* no line near the end has a time: the file's modification time"], columns)
    : [];
}

/**
 * Each id's shortest prefix of at least `SHORT_ID` characters that no other id of the list starts with (an id of
 * at most 12 characters, or one another id starts with, is kept whole): what `romp show`, `romp cat` and the others
 * take for it. In sorted order an id shares its longest prefix with a neighbour, so one sort and a look at each
 * neighbour decide it.
 * @param ids the listed ids
 * @returns a prefix for each, in order
 */
export function uniquePrefixes(ids: readonly string[]): string[] {
  const sorted = [...new Set(ids)].sort();
  const common = (a: string | undefined, b: string): number => {
    let n = 0;
    while (a !== undefined && n < a.length && n < b.length && a.charCodeAt(n) === b.charCodeAt(n)) n++;
    return n;
  };
  const length = new Map<string, number>();
  sorted.forEach((id, i) => {
    const shared = Math.max(common(sorted[i - 1], id), common(sorted[i + 1], id));
    length.set(id, id.length <= SHORT_ID + 4 ? id.length : Math.min(id.length, Math.max(SHORT_ID, shared + 1)));
  });
  return ids.map((id) => id.slice(0, length.get(id)));
}
