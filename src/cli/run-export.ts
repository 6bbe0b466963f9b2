import { renderMarkdownTranscript } from '../export/render-markdown-transcript.ts';
import type { View } from '../graph/resolve-active-path.ts';
import { readPageContext } from '../html/read-page-context.ts';
import { parseSession } from '../session/parse-session.ts';
import type { CliIO } from './cli-io.ts';
import { withOneSessionFile, writeOutput } from './one-session-file.ts';
import type { TargetOptions } from './resolve-targets.ts';

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
  return withOneSessionFile('export', args, options, io, async (file) => {
    const view = options.view ?? 'full';
    const { session } = await parseSession([file], { view });
    let text: string;
    if (options.format === 'json') text = `${JSON.stringify(session)}\n`;
    else {
      const { ctx, branches } = await readPageContext(session, [file], { view }, false);
      // in the context view the lines before the compaction are off the path too: they are no rewinds
      text = renderMarkdownTranscript(session, view === 'full' ? ctx : { ...ctx, branchesFrom: new Map() }, view === 'full' ? branches : []);
    }
    await writeOutput(io, options.output, text, `${session.turns.length} turns`);
    return 0;
  });
}
