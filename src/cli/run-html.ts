import { basename, dirname, extname, join } from 'node:path';
import { buildHtmlPage } from '../html/build-html-page.ts';
import { UserError, type CliIO } from './cli-io.ts';
import { timeFormat } from './format-time.ts';
import { withOneSessionFile, writeOutput } from './one-session-file.ts';
import { refuseNonTranscripts } from './refuse-non-transcripts.ts';
import type { TargetOptions } from './resolve-targets.ts';
import { plural } from '../text/format-count.ts';
import { diagnosticsJson, writeDiagnostics } from './write-diagnostics.ts';

/** Options of `romp html`. */
export interface HtmlCliOptions extends TargetOptions {
  /** Where to write the page (default: standard output). */
  output?: string;
  /** With `output`: print what was written as one JSON object. */
  json?: boolean;
}

/**
 * The file of part `n` of the page written to `output`: `output` itself for the first, else beside
 * it with `.partN` before the extension (`s.html`, `s.part2.html`, …).
 * @param output the `-o` path
 * @param n the part, 1-based
 * @returns the path
 */
export function partFile(output: string, n: number): string {
  if (n === 1) return output;
  const ext = extname(output);
  return join(dirname(output), `${basename(output, ext)}.part${n}${ext === '' ? '.html' : ext}`);
}

/**
 * `romp html SESSION [-o FILE]`: the self-contained page of one session (`buildHtmlPage`). SESSION is
 * a transcript path, a session id or a unique prefix, or `--latest` / `--project`. With `-o` the page
 * goes to the file and one line naming it (size, turns, cuts) to stderr; a long session's page is split
 * into parts (`PART_CHARS`), FILE then the numbered part files beside it (`partFile`), linked from each
 * other, one stderr line each. Without `-o`, one page to stdout, never split. `--json` (with `-o` only: without
 * it the page is the output) prints `{ rompUuid, turns, truncated, files: [{ path, bytes }], diagnostics }` to stdout.
 * The parse's diagnostics go to stderr as `romp show` prints them (`writeDiagnostics`) and into the page's header.
 * @param args the session argument (one)
 * @param options output, json, latest, project, projects, timezone
 * @param io where to write
 * @returns the exit code
 */
export async function runHtml(args: string[], options: HtmlCliOptions, io: CliIO): Promise<number> {
  if (options.json === true && options.output === undefined)
    throw new UserError('--json needs -o FILE: without it the page itself is what romp html prints');
  return withOneSessionFile('html', args, options, io, async (file) => {
    const output = options.output;
    const { parts, session, diagnostics } = await buildHtmlPage([file], {
      time: timeFormat(options.timezone),
      ...(output === undefined ? {} : { partHref: (n) => encodeURIComponent(basename(partFile(output, n))) }),
    });
    refuseNonTranscripts({ session, diagnostics });
    const cuts = diagnostics.filter((d) => d.code === 'HTML_TRUNCATED').length;
    const split = parts.length === 1 ? '' : `, split into ${plural(parts.length, 'part')} (HTML_SPLIT)`;
    const files: Array<{ path: string; bytes: number }> = [];
    for (const [i, part] of parts.entries()) {
      const summary =
        i === 0
          ? `${plural(session.turns.length, 'turn')}${cuts === 0 ? '' : `, ${cuts} cut (HTML_TRUNCATED)`}${split}`
          : `part ${i + 1} of ${parts.length}`;
      await writeOutput(io, output === undefined ? undefined : partFile(output, i + 1), part, summary);
      if (output !== undefined) files.push({ path: partFile(output, i + 1), bytes: Buffer.byteLength(part) });
    }
    // the page's own cuts and parts are said in the lines above; the parse's diagnostics as romp show says them
    const parse = diagnostics.filter((d) => d.code !== 'HTML_TRUNCATED' && d.code !== 'HTML_SPLIT');
    if (options.json === true)
      io.stdout.write(
        `${JSON.stringify({ rompUuid: session.rompUuid, turns: session.turns.length, truncated: cuts, files, diagnostics: diagnosticsJson(parse) })}\n`,
      );
    writeDiagnostics(io, parse);
    return 0;
  });
}
