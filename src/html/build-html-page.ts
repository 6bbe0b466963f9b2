import type { Diagnostic } from '../diagnostics/diagnostic.ts';
import type { Session } from '../model/types.ts';
import { parseSession, type ParseOptions } from '../session/parse-session.ts';
import { readPageContext } from './read-page-context.ts';
import { renderPage } from './render-page.ts';

/** Options of `buildHtmlPage`: those of `parseSession` (its `view` is ignored: a page holds both), and `live`. */
export interface HtmlPageOptions extends Omit<ParseOptions, 'view'> {
  /** A page of `romp serve` (live updates). */
  live?: boolean;
  /** The session, when the caller already has it (the `full` view of the same files): not parsed again. */
  session?: Session;
}

/**
 * `romp html`: the page of one session (`renderPage`), with what the parse leaves out read back by
 * `readPageContext` (edit hunks, rewound branches, subagents, and the `context` view's atoms when the
 * session was compacted, so the page can switch).
 * @param files the session's transcript files
 * @param options parse options, `live`, `session`
 * @returns the page, the session, the parse's diagnostics and one `HTML_TRUNCATED` per cut
 */
export async function buildHtmlPage(files: string[], options: HtmlPageOptions = {}): Promise<{ html: string; session: Session; diagnostics: Diagnostic[] }> {
  const { live, session: given, ...parse } = options;
  const parsed = given === undefined ? await parseSession(files, { ...parse, view: 'full' }) : { session: given, diagnostics: [] };
  const { ctx, branches, omitted, compacted } = await readPageContext(parsed.session, files, parse, true);
  const html = renderPage(parsed.session, ctx, { branches, omitted, compacted, live: live === true });
  return { html, session: parsed.session, diagnostics: [...parsed.diagnostics, ...ctx.diagnostics] };
}
