import type { Diagnostic, DiagnosticCode } from '../diagnostics/diagnostic.ts';
import { parseSession } from '../session/parse-session.ts';

/** What `romp doctor` found in one transcript file. */
export interface FileReport {
  file: string;
  /** Records read (atoms + other records). */
  records: number;
  atoms: number;
  turns: number;
  /** Diagnostics by code. */
  counts: Partial<Record<DiagnosticCode, number>>;
  diagnostics: Diagnostic[];
  /** Lines whose parent was never written (bridged by time, or across a gap). */
  orphanedParents: Array<{ uuid: string; line: number; bridged: boolean }>;
  /** Message lines off the active path (rewound branches, pre-clear history), sidechains apart. */
  deadBranchLines: number;
  sidechainLines: number;
  /** Compactions whose `logicalParentUuid` did not resolve. */
  compactionFallbacks: Array<{ uuid: string; line: number; stitched: boolean }>;
  /** uuids written twice in this file. */
  duplicateUuids: string[];
  /** uuids this file shares with other files of the set (fork or resume copies). */
  sharedUuids: number;
}

const MESSAGE_TYPES = new Set(['user', 'assistant']);

/**
 * Examines each file on its own (the `full` view) and reports its health: diagnostics, orphaned parents,
 * dead branches, compaction stitches that needed a fallback, duplicate uuids, and uuids shared with the
 * other files given.
 * @param files transcript paths
 * @returns one report per file, in the order given
 */
export async function examineFiles(files: string[]): Promise<FileReport[]> {
  const reports: FileReport[] = [];
  const owners = new Map<string, number>();
  const uuidsOf: Array<Set<string>> = [];
  for (const file of files) {
    const { session, diagnostics } = await parseSession([file]);
    const counts: Partial<Record<DiagnosticCode, number>> = {};
    for (const d of diagnostics) counts[d.code] = (counts[d.code] ?? 0) + 1;
    const atoms = session.turns.flatMap((t) => t.atoms);
    const uuids = new Set<string>([
      ...atoms.map((a) => a.uuid),
      ...session.records.flatMap((r) => (r.uuid === undefined ? [] : [r.uuid])),
    ]);
    uuidsOf.push(uuids);
    for (const u of uuids) owners.set(u, (owners.get(u) ?? 0) + 1);
    const offPath = session.records.filter((r) => r.onPath === false && MESSAGE_TYPES.has(r.type));
    reports.push({
      file,
      records: atoms.length + session.records.length,
      atoms: atoms.length,
      turns: session.turns.length,
      counts,
      diagnostics,
      orphanedParents: diagnostics
        .filter((d) => d.code === 'PHANTOM_PARENT' || d.code === 'HISTORY_GAP')
        .map((d) => ({ uuid: d.uuid ?? '', line: d.line ?? 0, bridged: d.code === 'PHANTOM_PARENT' })),
      deadBranchLines: offPath.filter((r) => r.isSidechain !== true).length,
      sidechainLines: offPath.filter((r) => r.isSidechain === true).length,
      compactionFallbacks: diagnostics
        .filter((d) => d.code === 'COMPACT_PARENT_FALLBACK' || d.code === 'COMPACT_PARENT_MISSING')
        .map((d) => ({ uuid: d.uuid ?? '', line: d.line ?? 0, stitched: d.code === 'COMPACT_PARENT_FALLBACK' })),
      duplicateUuids: diagnostics.filter((d) => d.code === 'DUPLICATE_UUID').map((d) => d.uuid ?? ''),
      sharedUuids: 0,
    });
  }
  reports.forEach((report, i) => {
    let shared = 0;
    for (const u of uuidsOf[i] ?? []) if ((owners.get(u) ?? 0) > 1) shared++;
    report.sharedUuids = shared;
  });
  return reports;
}
