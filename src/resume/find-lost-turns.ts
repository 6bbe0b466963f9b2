import { toolResultText } from '../model/tool-result-text.ts';
import type { Diagnostic } from '../diagnostics/diagnostic.ts';
import { isCompactBoundary, type Entry } from '../graph/entry.ts';
import type { SessionState } from '../session/build-session.ts';
import { keyed } from '../model/keyed.ts';
import { minOf } from '../model/extremes.ts';

/**
 * Why a turn of the `full` view does not come back on `claude --resume` (docs/resume-check.md):
 * - `compaction`: before the last `compact_boundary`, where Claude Code's loader starts (by design);
 * - `dangling_logical_parent`: the same, at a boundary whose `logicalParentUuid` is not in the files
 *   (the history before it was found by a fallback, `COMPACT_PARENT_FALLBACK` / `COMPACT_PARENT_MISSING`);
 * - `history_gap`: before a parent that was never written (`HISTORY_GAP`: the loader's walk stops);
 * - `split_files`: in another file of the session: the resumed file does not link to it (a resume
 *   fork whose first line names a parent in the other file, or starts a chain of its own);
 * - `branch`: on a branch the loader does not take, left at a parent with two children (a rewind, a
 *   writer that forked, a command branch: `COMMAND_BRANCH`);
 * - `progress_overtook`: the same, where the loader's branch runs through `progress` rows (a
 *   subagent's progress chain written after the main chain's last line).
 */
export type LossCause =
  'compaction' | 'dangling_logical_parent' | 'history_gap' | 'split_files' | 'branch' | 'progress_overtook';

/** One lost turn, located at its cause: the line where the resumed conversation is cut off from it. */
export interface LostTurn {
  turn_id: string;
  cause: LossCause;
  /** The file, line (1-based), uuid and time (epoch ms) of the cause's line (the boundary, the gap, the fork). */
  file: string;
  line: number;
  uuid: string;
  t: number;
}

/** What `romp resume-check --json` prints for one session. */
export interface ResumeReport {
  /** The session's rompUuid. */
  session: string;
  /** Turns `claude --resume` loads (the `context` view of the file it resumes). */
  context_turns: number;
  /** Turns of the `full` view of every file of the session. */
  full_turns: number;
  /** The `full` view's turns absent from the `context` view, in conversation order. */
  lost: LostTurn[];
  /** Lost turns by cause (an object without a prototype). */
  causes: Record<string, number>;
}

/** A cause as the text report names it: where it is and what it means. */
export interface CauseNote {
  cause: LossCause;
  file: string;
  line: number;
  uuid: string;
  t: number;
  /** One line of explanation (the summary's size, the missing parent, the other files). */
  note: string;
}

/** The inputs: the two views, each built with the same rompUuid so turn ids compare. */
export interface ResumeViews {
  /** The `full` view of all the session's files. */
  full: SessionState;
  fullDiagnostics: readonly Diagnostic[];
  /** The `context` view of the file `claude --resume` reads (the leaf's file), alone. */
  context: SessionState;
  contextDiagnostics: readonly Diagnostic[];
}

/**
 * Predicts what `claude --resume` loses: every turn of the `full` view whose id is not a turn of the
 * `context` view (the view that equals Claude Code's loader, docs/model.md), with its cause, located.
 * Pure. A turn cut in two by the cause (the part before a boundary lost, the rest kept under another
 * id) counts as lost.
 *
 * Rules, in order, for each lost turn: a turn whose lines all live in files other than the resumed
 * one → `split_files`; a turn before the line the `context` walk starts at → that line's cause
 * (a `compact_boundary`: `compaction`, or `dangling_logical_parent` where its history was found by a
 * fallback; a `HISTORY_GAP`: `history_gap`, or `split_files` when the missing parent is in another
 * file; a root of its own with history before it in other files: `split_files`); any other → the
 * `full` path left the loader's at a fork: `branch` (`progress_overtook` when the loader's branch
 * runs through `progress` rows), located at the first line of the branch left behind.
 * @param views the two views and their diagnostics
 * @returns the report and one note per cause met
 */
export function findLostTurns(views: ResumeViews): { report: ResumeReport; notes: CauseNote[] } {
  const { full, context } = views;
  const kept = new Set(context.session.turns.map((t) => t.id));
  const fullPath = full.path.entries;
  const at = new Map<string, number>(fullPath.map((e, i) => [e.uuid, i]));
  const onContext = new Set(context.path.entries.map((e) => e.uuid));
  const resumedFile = context.session.files[0]?.path;
  const root = context.path.entries[0];
  const rootAt = root === undefined ? undefined : at.get(root.uuid);
  const notes = new Map<string, CauseNote>();
  const note = (cause: LossCause, e: Entry, text: string): CauseNote => {
    const key = `${cause}\u0000${e.uuid}`;
    let n = notes.get(key);
    if (n === undefined) notes.set(key, (n = { cause, file: e.file, line: e.line, uuid: e.uuid, t: e.t, note: text }));
    return n;
  };
  const barrier = root === undefined ? undefined : rootCause(root, views, note);
  const lost: LostTurn[] = [];
  for (const turn of full.session.turns) {
    if (kept.has(turn.id)) continue;
    const positions = turn.atoms.map((a) => at.get(a.uuid)).filter((p): p is number => p !== undefined);
    // where the turn leaves the resumed path: its first line the resume does not load (a split turn: its first line)
    const gone = positions.filter((p) => !onContext.has((fullPath[p] as Entry).uuid));
    const start = gone.length > 0 ? minOf(gone) : positions.length > 0 ? minOf(positions) : undefined;
    const entries = positions.map((p) => fullPath[p] as Entry);
    let cause: CauseNote;
    if (resumedFile !== undefined && entries.length > 0 && entries.every((e) => e.file !== resumedFile)) {
      const others = full.session.files.filter((f) => f.path !== resumedFile).map((f) => f.path);
      cause = note(
        'split_files',
        root ?? (entries[0] as Entry),
        `history in ${others.join(', ')}, which the resumed file does not link to`,
      );
    } else if (barrier !== undefined && start !== undefined && rootAt !== undefined && start < rootAt) cause = barrier;
    else cause = forkCause(start ?? 0, fullPath, onContext, context.path.entries, note);
    lost.push({
      turn_id: turn.id,
      cause: cause.cause,
      file: cause.file,
      line: cause.line,
      uuid: cause.uuid,
      t: cause.t,
    });
  }
  const causes = keyed<number>();
  for (const l of lost) causes[l.cause] = (causes[l.cause] ?? 0) + 1;
  const used = new Set(lost.map((l) => `${l.cause}\u0000${l.uuid}`));
  return {
    report: {
      session: full.rompUuid,
      context_turns: context.session.turns.length,
      full_turns: full.session.turns.length,
      lost,
      causes,
    },
    notes: [...notes.entries()].filter(([k]) => used.has(k)).map(([, n]) => n),
  };
}

type Note = (cause: LossCause, e: Entry, text: string) => CauseNote;

/** Why the `context` walk starts at `root` rather than earlier. */
function rootCause(root: Entry, views: ResumeViews, note: Note): CauseNote | undefined {
  if (isCompactBoundary(root)) {
    const meta = root.record['compactMetadata'] as { preTokens?: unknown; postTokens?: unknown } | undefined;
    const summary = views.context.path.entries.find((e) => e.type === 'user' && e.record['isCompactSummary'] === true);
    const size = summary === undefined ? 'no summary line in the file' : `summary ${summaryChars(summary)} characters`;
    const tokens = typeof meta?.preTokens === 'number' ? `, ${meta.preTokens} tokens before` : '';
    const fallback = views.fullDiagnostics.find(
      (d) => (d.code === 'COMPACT_PARENT_FALLBACK' || d.code === 'COMPACT_PARENT_MISSING') && d.uuid === root.uuid,
    );
    if (fallback !== undefined)
      return note(
        'dangling_logical_parent',
        root,
        `compaction whose logicalParentUuid is not in the files (${fallback.code}): the history before it was found by a fallback; ${size}${tokens}`,
      );
    return note(
      'compaction',
      root,
      `compaction (by design: resume starts at the boundary with its summary); ${size}${tokens}`,
    );
  }
  const gap = views.contextDiagnostics.find((d) => d.code === 'HISTORY_GAP' && d.uuid === root.uuid);
  const elsewhere = root.parent !== null ? views.full.index.byUuid.get(root.parent) : undefined;
  if (gap !== undefined && elsewhere !== undefined && elsewhere.file !== root.file) {
    return note(
      'split_files',
      root,
      `parent ${root.parent} is in ${elsewhere.file}, which the resumed file does not hold`,
    );
  }
  if (gap !== undefined)
    return note('history_gap', root, `parent ${root.parent} was never written: the resumed conversation starts here`);
  return note(
    'split_files',
    root,
    'the resumed file starts a chain of its own: the history before it is in the other files',
  );
}

/** The fork where the `full` path left the loader's: the first full-path line after the last shared one. */
function forkCause(
  start: number,
  fullPath: Entry[],
  onContext: ReadonlySet<string>,
  contextPath: Entry[],
  note: Note,
): CauseNote {
  let fork = start;
  while (fork > 0 && !onContext.has((fullPath[fork - 1] as Entry).uuid)) fork--;
  const left = fullPath[fork] as Entry;
  const parent = fork > 0 ? (fullPath[fork - 1] as Entry) : undefined;
  const from = parent === undefined ? -1 : contextPath.findIndex((e) => e.uuid === parent.uuid);
  const taken = contextPath.slice(from + 1);
  const other = taken[0];
  if (taken.some((e) => e.type === 'progress' || e.via !== undefined)) {
    return note(
      'progress_overtook',
      left,
      `the resumed branch runs through progress rows written after the main chain${other === undefined ? '' : ` (from ${other.uuid})`}`,
    );
  }
  const at = parent === undefined ? 'the start' : `${parent.uuid}`;
  return note(
    'branch',
    left,
    `a branch left at ${at}, which has another child the resume takes${other === undefined ? '' : ` (${other.uuid})`}`,
  );
}

/** The length of a compact summary's text (characters). */
function summaryChars(e: Entry): number {
  const content = (e.record['message'] as { content?: unknown } | undefined)?.content;
  return toolResultText(content).length;
}
