import { writeFile } from 'node:fs/promises';
import { buildHtmlPage } from '../html/build-html-page.ts';
import { checkFiles, UserError, type CliIO } from './cli-io.ts';
import { resolveTargets, type TargetOptions } from './resolve-targets.ts';

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
  const targets = await resolveTargets(args, options, 'one', io);
  try {
    if (targets.files.length !== 1) throw new UserError(targets.files.length === 0 ? 'name a session: a transcript path, a session id or prefix, --latest or --project' : 'romp html reads one session');
    await checkFiles(targets.files);
    const { html, session, diagnostics } = await buildHtmlPage(targets.files);
    const cuts = diagnostics.filter((d) => d.code === 'HTML_TRUNCATED').length;
    if (options.output === undefined) io.stdout.write(html);
    else {
      await writeFile(options.output, html);
      io.stderr.write(`wrote ${options.output}: ${Math.ceil(Buffer.byteLength(html) / 1024)} KB, ${session.turns.length} turns${cuts === 0 ? '' : `, ${cuts} cut (HTML_TRUNCATED)`}\n`);
    }
    return 0;
  } finally {
    await targets.cleanup();
  }
}
