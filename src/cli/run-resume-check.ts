import { refuseUnrelated } from './refuse-unrelated.ts';
import { checkProjectsFolder } from './check-projects-folder.ts';
import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { discoverTranscripts } from '../discover/discover-transcripts.ts';
import { rompHomeFolder } from './romp-home-folder.ts';
import { findLostTurns, type CauseNote, type ResumeReport } from '../resume/find-lost-turns.ts';
import { linearFork } from '../resume/linear-fork.ts';
import { readResumeViews } from '../resume/read-resume-views.ts';
import { renderHandoff } from '../resume/render-handoff.ts';
import { verifyFork } from '../resume/verify-fork.ts';
import { reportSkipped, UserError, type CliIO } from './cli-io.ts';
import { checkTranscripts } from './check-transcripts.ts';
import { outputWidth, wrapLines } from './fit-width.ts';
import { timeFormat, type TimeFormat } from './format-time.ts';
import { isoTime, withIsoTimes } from './iso-time.ts';
import { writeOutput } from './one-session-file.ts';
import { resolveTargets, type TargetOptions } from './resolve-targets.ts';
import { makeDir } from '../fs/make-dir.ts';
import { plural } from '../text/format-count.ts';

/** Options of `romp resume-check`. */
export interface ResumeCheckOptions extends TargetOptions {
  json?: boolean;
  handoff?: string;
  writeFork?: string;
  timezone?: string;
  rompHome?: string;
}

/**
 * `romp resume-check SESSION`: what `claude --resume` will not load (`findLostTurns`), per cause with
 * where it is; `--json` prints the `ResumeReport` (a lost turn's `t` an ISO string with the zone's
 * offset: `isoTime`). Without a session and with `--projects DIR`, every session of the folder
 * (`--json`: an array of reports, one per main transcript). `--handoff FILE` writes the Markdown of the
 * lost turns (`renderHandoff`, its times as the JSON's); `--write-fork DIR` writes the `full` view as a
 * new linear transcript `DIR/<new id>.jsonl` (`linearFork`) once the Agent SDK's `getSessionMessages`
 * loads it as intended (refused when it does not; written with a warning when the SDK is not installed).
 * @param args the session (`resolveTargets`)
 * @param options json, handoff, write-fork, zone, projects folder
 * @param io where to write
 * @returns the exit code
 */
export async function runResumeCheck(args: string[], options: ResumeCheckOptions, io: CliIO): Promise<number> {
  const time = timeFormat(options.timezone);
  const iso = isoTime(options.timezone);
  const json = (report: ResumeReport): unknown => ({
    ...report,
    lost: report.lost.map((l) => withIsoTimes(l, ['t'], iso)),
  });
  const home = rompHomeFolder(options.rompHome);
  if (args.length === 0 && options.latest !== true && options.project === undefined && options.projects !== undefined) {
    if (options.handoff !== undefined || options.writeFork !== undefined)
      throw new UserError('--handoff and --write-fork take one session, not a whole --projects folder');
    await checkProjectsFolder(options.projects);
    const { files, skipped } = await discoverTranscripts(options.projects);
    for (const s of skipped) reportSkipped(s, io);
    const reports: ResumeReport[] = [];
    for (const f of files.filter((d) => d.parts.length === 1 && !(d.parts[0] ?? '').startsWith('agent-'))) {
      const { report, notes } = findLostTurns(await readResumeViews([f.path], { rompHome: home, discover: false }));
      reports.push(report);
      if (options.json !== true && report.lost.length > 0)
        io.stdout.write(formatReport(f.path, report, notes, time, [], outputWidth(io.stdout)));
    }
    if (options.json === true) io.stdout.write(`${JSON.stringify(reports.map(json))}\n`);
    else
      io.stdout.write(
        `${reports.filter((r) => r.lost.length > 0).length} of ${plural(reports.length, 'session')} ${reports.filter((r) => r.lost.length > 0).length === 1 ? 'loses' : 'lose'} turns on resume\n`,
      );
    return 0;
  }
  const targets = await resolveTargets(args, options, 'one', io);
  try {
    if (targets.files.length === 0)
      throw new UserError(
        'which session? give a transcript file, a session id (or a unique prefix of one), --latest, --project DIR, or --projects DIR for all of them',
      );
    await checkTranscripts(targets.files);
    const views = await readResumeViews(targets.files, { rompHome: home });
    await refuseUnrelated(views.full);
    const { report, notes } = findLostTurns(views);
    if (options.json === true) io.stdout.write(`${JSON.stringify(json(report))}\n`);
    else
      io.stdout.write(
        formatReport(
          views.context.session.files[0]?.path ?? targets.files.join(', '),
          report,
          notes,
          time,
          views.found,
          outputWidth(io.stdout),
        ),
      );
    if (options.handoff !== undefined)
      await writeOutput(
        io,
        options.handoff,
        renderHandoff(views.full.session, report, notes, (t) => iso(t) ?? 'time unknown'),
        `${report.lost.length} lost turns`,
      );
    if (options.writeFork !== undefined) return await writeFork(options.writeFork, views.full.path.entries, io);
    return 0;
  } finally {
    await targets.cleanup();
  }
}

async function writeFork(dir: string, path: Parameters<typeof linearFork>[0], io: CliIO): Promise<number> {
  const id = randomUUID();
  const fork = linearFork(path, id);
  const check = await verifyFork(fork.lines, id, fork.expected);
  if (check.checked && !check.ok) {
    io.stderr.write(
      `romp: not written: getSessionMessages loads ${check.got.length} of the fork's ${plural(fork.expected.length, 'message')}, or in another order\n`,
    );
    return 2;
  }
  if (!check.checked) io.stderr.write(`romp: the fork was not checked: ${check.reason}\n`);
  makeDir(dir);
  const file = join(dir, `${id}.jsonl`);
  await writeFile(file, fork.lines.map((l) => JSON.stringify(l)).join('\n') + '\n', { flag: 'wx' });
  io.stderr.write(
    `wrote ${file}: ${plural(fork.lines.length, 'line')}${check.checked ? `, getSessionMessages loads all ${plural(fork.expected.length, 'message')} in order` : ''}\n`,
  );
  return 0;
}

function formatReport(
  name: string,
  report: ResumeReport,
  notes: readonly CauseNote[],
  time: TimeFormat,
  found: readonly string[],
  columns: number | undefined,
): string {
  // a turn cut in two is lost, and the rest of it loads as a turn of its own: say so, or the counts do not add up
  const cut = report.context_turns - (report.full_turns - report.lost.length);
  const rest = cut > 0 ? `, ${cut} of them in part: the rest loads as a turn of its own` : '';
  const lines = [
    `${name}: claude --resume of this file loads ${plural(report.context_turns, 'turn')}; ${report.lost.length} of the ${plural(report.full_turns, 'turn')} of the full history ${report.lost.length === 1 ? 'is' : 'are'} not loaded${rest} (times in ${time.zone})`,
  ];
  if (found.length > 0) lines.push(`  other files of this session read: ${found.join(', ')}`);
  for (const n of notes) {
    const count = report.lost.filter((l) => l.cause === n.cause && l.uuid === n.uuid).length;
    lines.push(`  ${n.cause} ×${count} at ${n.file}:${n.line} (${n.uuid}, ${time.format(n.t)}): ${n.note}`);
  }
  return `${wrapLines(lines, columns).join('\n')}\n`;
}
