import { buildHtmlPage } from '../html/build-html-page.ts';
import type { CliIO } from './cli-io.ts';
import { withOneSessionFile, writeOutput } from './one-session-file.ts';
import type { TargetOptions } from './resolve-targets.ts';

/** Options of `romp html`. */
export interface HtmlCliOptions extends TargetOptions {
  /** Where to write the page (default: standard output). */
  output?: string;
}

/**
 * `romp html SESSION [-o FILE]`: the self-contained page of one session (`buildHtmlPage`). SESSION is
 * a transcript path, a session id or a unique prefix, or `--latest` / `--project`. With `-o` the page
 * goes to the file and one line naming it (size, turns, cuts) to stderr; without, to stdout.
 * @param args the session argument (one)
 * @param options output, latest, project, projects
 * @param io where to write
 * @returns the exit code
 */
export async function runHtml(args: string[], options: HtmlCliOptions, io: CliIO): Promise<number> {
  return withOneSessionFile('html', args, options, io, async (file) => {
    const { html, session, diagnostics } = await buildHtmlPage([file]);
    const cuts = diagnostics.filter((d) => d.code === 'HTML_TRUNCATED').length;
    await writeOutput(io, options.output, html, `${session.turns.length} turns${cuts === 0 ? '' : `, ${cuts} cut (HTML_TRUNCATED)`}`);
    return 0;
  });
}
