import { examineFiles, type FileReport } from '../doctor/examine-files.ts';
import { formatDiagnostic } from '../diagnostics/diagnostic.ts';
import { findLostTurns } from '../resume/find-lost-turns.ts';
import { readResumeViews } from '../resume/read-resume-views.ts';
import { checkFiles, reportUnreadable, type CliIO } from './cli-io.ts';
import { outputWidth, wrapLines } from './fit-width.ts';
import { resolveTargets } from './resolve-targets.ts';
import { shownDiagnostic, shownPath, STDIN } from './stdin-copy.ts';
import { plural } from '../text/format-count.ts';

/**
 * `romp doctor FILES...`: checks transcripts, each named as the other commands name sessions (a path, a
 * session id or a unique prefix of one, `-` for standard input: `resolveTargets`), and reports, per
 * file, the diagnostics, orphaned parents, dead branches, compaction stitches that needed a fallback,
 * and duplicate uuids, and for a file whose `claude --resume` would not load every turn, one line
 * saying how many and why (`findLostTurns` on that file alone); `--json` prints the reports, each with that as
 * `resume` (`{lost, full_turns, causes}`, `null` when every turn loads). Exit code
 * 2 when a file cannot be read (named on stderr, after the reports), else 1 when any file has an
 * error-severity diagnostic (lines lost), else 0.
 * @param args transcript paths, session ids, `-`
 * @param options json
 * @param io where to write (and standard input, for `-`)
 * @returns the exit code
 */
export async function runDoctor(args: string[], options: { json?: boolean }, io: CliIO): Promise<number> {
  const targets = await resolveTargets(args, {}, 'many', io);
  try {
    return await examine(targets.files, options, io);
  } finally {
    await targets.cleanup();
  }
}

async function examine(files: string[], options: { json?: boolean }, io: CliIO): Promise<number> {
  await checkFiles(files);
  const reports = await examineFiles(files);
  const risks = await Promise.all(reports.map((r) => resumeRisk(r.file)));
  if (options.json === true)
    io.stdout.write(`${JSON.stringify(reports.map((r, i) => ({ ...r, resume: risks[i] ?? null })))}\n`);
  else {
    const width = outputWidth(io.stdout);
    for (const [i, report] of reports.entries()) {
      const text = format(report) + resumeLine(report.file, risks[i]);
      io.stdout.write(`${wrapLines(text.trimEnd().split('\n'), width).join('\n')}\n`);
    }
    if (reports.length > 1 && reports.some((r) => r.orphanedParents.length > 0)) {
      const note =
        'note: each file is examined on its own, so a parent written in another of these files shows as orphaned here; `romp show FILES...` reads them as one session';
      io.stdout.write(`${wrapLines([note], width).join('\n')}\n`);
    }
  }
  const unreadable = reports.flatMap((r) => r.diagnostics.filter((d) => d.code === 'FILE_UNREADABLE'));
  if (reportUnreadable(unreadable, io) !== 0) return 2;
  return reports.some((r) => r.diagnostics.some((d) => d.severity === 'error')) ? 1 : 0;
}

function format(r: FileReport): string {
  const lines = [
    shownPath(r.file),
    `  ${plural(r.records, 'record')}: ${plural(r.atoms, 'atom')} in ${plural(r.turns, 'turn')}; ${plural(r.deadBranchLines, 'dead-branch line')}, ${plural(r.sidechainLines, 'sidechain line')}, ${plural(r.sharedUuids, 'uuid')} shared with other files`,
  ];
  const counts = Object.entries(r.counts)
    .map(([code, n]) => `${code}×${n}`)
    .join(', ');
  lines.push(`  diagnostics: ${counts === '' ? 'none' : counts}`);
  if (r.orphanedParents.length > 0)
    lines.push(
      `  orphaned parents: ${r.orphanedParents.map((o) => `line ${o.line}${o.bridged ? ' (bridged by time)' : ' (gap)'}`).join(', ')}`,
    );
  if (r.compactionFallbacks.length > 0)
    lines.push(
      `  compaction stitches by fallback: ${r.compactionFallbacks.map((c) => `line ${c.line}${c.stitched ? '' : ' (unstitched)'}`).join(', ')}`,
    );
  if (r.duplicateUuids.length > 0) {
    const unique = [...new Set(r.duplicateUuids)];
    const shown = unique.slice(0, 10).join(', ');
    lines.push(
      `  duplicate uuids (${plural(r.duplicateUuids.length, 'line')}, ${plural(unique.length, 'uuid')}): ${shown}${unique.length > 10 ? ', …' : ''}`,
    );
  }
  // all of them: the other commands print 20 and send the reader here for the rest
  for (const d of r.diagnostics) if (d.severity !== 'info') lines.push(`  ${formatDiagnostic(shownDiagnostic(d))}`);
  return `${lines.join('\n')}\n`;
}

/** What `claude --resume` of a file alone would not load (`--json`'s `resume`): turns lost, of how many, by cause. */
interface ResumeRisk {
  lost: number;
  full_turns: number;
  causes: Record<string, number>;
}

/** The file's resume risk (`findLostTurns` on that file alone); `undefined` when every turn loads. */
async function resumeRisk(file: string): Promise<ResumeRisk | undefined> {
  const { report } = findLostTurns(await readResumeViews([file], { discover: false }));
  return report.lost.length === 0
    ? undefined
    : { lost: report.lost.length, full_turns: report.full_turns, causes: report.causes };
}

/** The text report's line of a resume risk: lost turns by cause; else nothing. */
function resumeLine(file: string, risk: ResumeRisk | undefined): string {
  if (risk === undefined) return '';
  const causes = Object.entries(risk.causes)
    .map(([cause, n]) => `${cause}×${n}`)
    .join(', ');
  return `  resume: ${risk.lost} of ${plural(risk.full_turns, 'turn')} ${risk.lost === 1 ? 'is' : 'are'} not loaded by claude --resume (${causes}); romp resume-check ${shownPath(file) === STDIN ? '-' : file}\n`;
}
