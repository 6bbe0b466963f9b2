import { renderMarkdownTranscript } from '../export/render-markdown-transcript.ts';
import type { View } from '../graph/resolve-active-path.ts';
import { readPageContext } from '../html/read-page-context.ts';
import { parseSession } from '../session/parse-session.ts';
import { UserError, type CliIO } from './cli-io.ts';
import { timeFormat } from './format-time.ts';
import { withOneSessionFile, writeOutput } from './one-session-file.ts';
import { refuseNonTranscripts } from './refuse-non-transcripts.ts';
import type { TargetOptions } from './resolve-targets.ts';
import type { BulkExportOptions } from './run-bulk-export.ts';
import { plural } from '../text/format-count.ts';
import { writeDiagnostics } from './write-diagnostics.ts';

/** Options of `romp export`. */
export interface ExportCliOptions extends TargetOptions, Omit<BulkExportOptions, 'format'> {
  /** `md` (default), `json` (the Session), `otlp` (traces), `parquet` or `ndjson` (the lake, docs/lake.md). */
  format?: 'md' | 'json' | BulkExportOptions['format'];
  view?: View;
  /** Where to write (default: standard output). */
  output?: string;
}

/**
 * `romp export SESSION [--format md|json] [--view full|context] [-o FILE]`: one session as readable
 * Markdown (`renderMarkdownTranscript`, with the edit hunks, subagents and rewound branches read back
 * by `readPageContext`; rewound branches only in the `full` view), or as the Session's JSON. SESSION as
 * for `romp html`. `--format otlp` (`runOtlpExport`) and `parquet` / `ndjson` (`runLakeExport`) read every
 * session named, or the whole projects folder. The parse's diagnostics go to stderr as `romp show` prints them.
 * @param args the session argument (one; any number for otlp, parquet and ndjson)
 * @param options format, view, output, latest, project, projects, timezone (md)
 * @param io where to write
 * @returns the exit code
 */
export async function runExport(args: string[], options: ExportCliOptions, io: CliIO): Promise<number> {
  const { format } = options;
  if (format === 'otlp' || format === 'parquet' || format === 'ndjson') {
    const bulk = await import('./run-bulk-export.ts');
    const out = options.out ?? options.output;
    const given = { ...options, format, ...(out === undefined ? {} : { out }) };
    return format === 'otlp' ? bulk.runOtlpExport(args, given, io) : bulk.runLakeExport(args, given, io);
  }
  const bulkOnly = (
    ['out', 'endpoint', 'includeContent', 'redact', 'keepToolResults', 'machine', 'since', 'json'] as const
  ).filter((o) => options[o] !== undefined);
  if (bulkOnly.length > 0)
    throw new UserError(
      `--${bulkOnly[0]?.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} is for --format otlp, parquet or ndjson`,
    );
  return withOneSessionFile('export', args, options, io, async (file) => {
    const view = options.view ?? 'full';
    const parsed = await parseSession([file], { view });
    refuseNonTranscripts(parsed);
    const { session } = parsed;
    let text: string;
    if (options.format === 'json') text = `${JSON.stringify(session)}\n`;
    else {
      const { ctx, branches } = await readPageContext(session, [file], { view }, false, timeFormat(options.timezone));
      // in the context view the lines before the compaction are off the path too: they are no rewinds
      text = renderMarkdownTranscript(
        session,
        view === 'full' ? ctx : { ...ctx, branchesFrom: new Map() },
        view === 'full' ? branches : [],
      );
    }
    await writeOutput(io, options.output, text, plural(session.turns.length, 'turn'));
    writeDiagnostics(io, parsed.diagnostics);
    return 0;
  });
}
