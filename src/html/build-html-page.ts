import { timeFormat, type TimeFormat } from '../cli/format-time.ts';
import { diagnostic, type Diagnostic } from '../diagnostics/diagnostic.ts';
import type { Session } from '../model/types.ts';
import { parseSession, type ParseOptions } from '../session/parse-session.ts';
import { readPageContext } from './read-page-context.ts';
import { renderPages } from './render-page.ts';

/**
 * Characters of turns above which `romp html -o` and `romp serve` split a page (`splitTurns`): about
 * 4 MB, which Chromium parses and lays out in well under a second on a quiet 2-core machine (a 31 MB
 * page took 3.3 s to its first script, 6.5 s under load: docs/html.md, Speed).
 */
export const PART_CHARS = 4_000_000;

/** Options of `buildHtmlPage`: those of `parseSession` (its `view` is ignored: a page holds both), and `live`. */
export interface HtmlPageOptions extends Omit<ParseOptions, 'view'> {
  /** A page of `romp serve` (live updates). */
  live?: boolean;
  /** The session, when the caller already has it (the `full` view of the same files): not parsed again. */
  session?: Session;
  /** Split a long session into parts: the address of part `n` (1-based) as linked from another; without it, one page.
   * */
  partHref?: (n: number) => string;
  /** The size of a part, in characters of turns (default `PART_CHARS`). */
  partChars?: number;
  /** How times are printed (default `timeFormat()`: the machine's zone). */
  time?: TimeFormat;
}

/**
 * `romp html`: the page of one session (`renderPages`), with what the parse leaves out read back by
 * `readPageContext` (edit hunks, rewound branches, subagents, and the `context` view's atoms when the
 * session was compacted, so the page can switch). With `partHref`, a session whose turns come to more
 * than `partChars` is split into parts (whole turns, at compactions where it can), linked together. The
 * parse's diagnostics are listed in the page's header (`renderDiagnostics`).
 * @param files the session's transcript files
 * @param options parse options, `live`, `session`, `partHref`, `partChars`, `time`
 * @returns the parts (`html` is the first), the session, the parse's diagnostics, one `HTML_TRUNCATED`
 *   per cut and one `HTML_SPLIT` per part after the first
 */
export async function buildHtmlPage(
  files: string[],
  options: HtmlPageOptions = {},
): Promise<{ html: string; parts: string[]; session: Session; diagnostics: Diagnostic[] }> {
  const { live, session: given, partHref, partChars, time, ...parse } = options;
  const parsed =
    given === undefined ? await parseSession(files, { ...parse, view: 'full' }) : { session: given, diagnostics: [] };
  const { ctx, branches, omitted, compacted } = await readPageContext(
    parsed.session,
    files,
    parse,
    true,
    time ?? timeFormat(),
  );
  const { pages, ranges } = renderPages(parsed.session, ctx, {
    branches,
    omitted,
    compacted,
    live: live === true,
    partHref,
    partChars: partChars ?? PART_CHARS,
    diagnostics: parsed.diagnostics,
  });
  const file = parsed.session.files[0]?.path ?? files[0] ?? '';
  const splits = ranges
    .slice(1)
    .map(([from, to], i) =>
      diagnostic('HTML_SPLIT', `page split: part ${i + 2} of ${ranges.length} holds turns ${from + 1}–${to}`, { file }),
    );
  return {
    html: pages[0] as string,
    parts: pages,
    session: parsed.session,
    diagnostics: [...parsed.diagnostics, ...ctx.diagnostics, ...splits],
  };
}
