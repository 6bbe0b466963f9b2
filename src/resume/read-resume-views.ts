import { readdir } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { Diagnostic } from '../diagnostics/diagnostic.ts';
import { headRecords } from '../discover/head-records.ts';
import { listSessions } from '../romp-home/registry.ts';
import { buildSessionState } from '../session/build-session.ts';
import { collectFiles } from '../session/collect-files.ts';
import type { ResumeViews } from './find-lost-turns.ts';

/** The two views of a session and the files read for it. */
export interface ReadViews extends ResumeViews {
  /** Every file of the session read for the `full` view: the ones given, then the ones found. */
  files: string[];
  /** Files found beside the ones given (same `sessionId`, shared uuids) or in romp's registry. */
  found: string[];
}

/**
 * Reads what `findLostTurns` compares: the `full` view of the session's files, and the `context` view
 * of the one file `claude --resume <id>` reads (the file holding the `full` view's leaf), both built
 * with the same rompUuid. With `discover`, the session's other files are added first: those of a
 * registry entry of romp's home that lists a given file, and the `*.jsonl` beside a given file (not
 * subagents') whose first 16 KiB carry the same `sessionId` or one of its uuids (a resume fork's copy).
 * @param files the session's transcript paths
 * @param options romp's home (for the registry), whether to look for other files, the rompUuid
 * @returns the views, their diagnostics and the files read
 */
export async function readResumeViews(
  files: string[],
  options: { rompHome?: string; discover?: boolean; rompUuid?: string } = {},
): Promise<ReadViews> {
  const fullDiagnostics: Diagnostic[] = [];
  const push = (d: Diagnostic): void => void fullDiagnostics.push(d);
  const given = await collectFiles(files, push);
  const found =
    options.discover === false
      ? []
      : await otherFiles(files, given.firstSessionId, new Set(given.entries.map((e) => e.uuid)), options.rompHome);
  const all = [...files, ...found];
  if (found.length > 0) fullDiagnostics.length = 0;
  const collected = found.length === 0 ? given : await collectFiles(all, push);
  const rompUuid = options.rompUuid ?? collected.firstSessionId ?? collected.files[0]?.fsid ?? '';
  const full = buildSessionState(collected, { view: 'full', rompUuid }, (d) => void fullDiagnostics.push(d));
  const leaf = full.session.files.find((f) => f.fsid === full.session.leafFsid)?.path ?? all[0] ?? '';
  const contextDiagnostics: Diagnostic[] = [];
  const context = buildSessionState(
    await collectFiles([leaf], (d) => void contextDiagnostics.push(d)),
    { view: 'context', rompUuid },
    (d) => void contextDiagnostics.push(d),
  );
  return { full, fullDiagnostics, context, contextDiagnostics, files: all, found };
}

/** The session's files romp knows of beyond `files`: its registry entry's, and related files beside them. */
async function otherFiles(
  files: string[],
  sessionId: string | undefined,
  uuids: ReadonlySet<string>,
  home: string | undefined,
): Promise<string[]> {
  const given = new Set(files.map((f) => resolve(f)));
  const out = new Set<string>();
  if (home !== undefined) {
    for (const entry of await listSessions(home)) {
      if (entry.files.some((f) => given.has(resolve(f.path))))
        for (const f of entry.files) if (!given.has(resolve(f.path))) out.add(f.path);
    }
  }
  for (const folder of new Set(files.map((f) => dirname(f)))) {
    let names: string[];
    try {
      names = await readdir(folder);
    } catch {
      continue;
    }
    for (const name of names.sort()) {
      const path = join(folder, name);
      if (!name.endsWith('.jsonl') || name.startsWith('agent-') || given.has(resolve(path)) || out.has(path)) continue;
      if (await related(path, sessionId, uuids)) out.add(path);
    }
  }
  return [...out];
}

/** Whether the head of `path` carries `sessionId` or names one of `uuids` (as its own uuid or a parent). */
async function related(path: string, sessionId: string | undefined, uuids: ReadonlySet<string>): Promise<boolean> {
  for (const record of await headRecords(path)) {
    if (sessionId !== undefined && record['sessionId'] === sessionId) return true;
    for (const key of ['uuid', 'parentUuid', 'logicalParentUuid']) {
      const value = record[key];
      if (typeof value === 'string' && uuids.has(value)) return true;
    }
  }
  return false;
}
