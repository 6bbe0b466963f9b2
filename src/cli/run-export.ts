import { writeFile } from 'node:fs/promises';
import { renderMarkdownTranscript } from '../export/render-markdown-transcript.ts';
import type { View } from '../graph/resolve-active-path.ts';
import { readPageContext } from '../html/read-page-context.ts';
import { parseSession } from '../session/parse-session.ts';
import { checkFiles, UserError, type CliIO } from './cli-io.ts';
import { resolveTargets, type TargetOptions } from './resolve-targets.ts';

/** Options of `romp export`. */
export interface ExportCliOptions extends TargetOptions {
  /** `md` (default) or `json` (the Session). */
  format?: 'md' | 'json';
  view?: View;
  /** Where to write (default: standard output). */
  output?: string;
}

/**
 * `romp export SESSION [--format md|json] [--view full|context] [-o FILE]`: one session as readable
 * Markdown (`renderMarkdownTranscript`, with the edit hunks, subagents and rewound branches read back
 * by `readPageContext`; rewound branches only in the `full` view), or as the Session's JSON. SESSION as
 * for `romp html`.
 * @param args the session argument (one)
 * @param options format, view, output, latest, project, projects
 * @param io where to write
 * @returns the exit code
 */
export async function runExport(args: string[], options: ExportCliOptions, io: CliIO): Promise<number> {
  const targets = await resolveTargets(args, options, 'one', io);
  try {
    if (targets.files.length !== 1) throw new UserError(targets.files.length === 0 ? 'name a session: a transcript path, a session id or prefix, --latest or --project' : 'romp export reads one session');
    await checkFiles(targets.files);
    const view = options.view ?? 'full';
    const { session } = await parseSession(targets.files, { view });
    let text: string;
    if (options.format === 'json') text = `${JSON.stringify(session)}\n`;
    else {
      const { ctx, branches } = await readPageContext(session, targets.files, { view }, false);
      // in the context view the lines before the compaction are off the path too: they are no rewinds
      text = renderMarkdownTranscript(session, view === 'full' ? ctx : { ...ctx, branchesFrom: new Map() }, view === 'full' ? branches : []);
    }
    if (options.output === undefined) io.stdout.write(text);
    else {
      await writeFile(options.output, text);
      io.stderr.write(`wrote ${options.output}: ${Math.ceil(Buffer.byteLength(text) / 1024)} KB, ${session.turns.length} turns\n`);
    }
    return 0;
  } finally {
    await targets.cleanup();
  }
}
