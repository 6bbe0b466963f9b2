import { join } from 'node:path';
import type { OnDiagnostic } from '../diagnostics/diagnostic.ts';
import { readTranscript } from '../read/read-transcript.ts';
import type { ResolvePeer } from '../tree/derive-author.ts';
import { parseTimestamp } from '../read/parse-timestamp.ts';
import type { RegistryEntry } from './registry.ts';

/** One row of `timeline/messages.jsonl`: a postal message sent from one session to another. */
export interface PostalRow {
  id: string;
  /** The sender's anchor sid (the Claude session id of its first transcript file). */
  from_id: string;
  /** The recipient's anchor sid. */
  to_id: string;
  /** When it was sent (epoch ms; from `t`, or `ts` as ISO-8601); `NaN` when neither. */
  t: number;
}

/**
 * Where romp's postal log lives.
 * @param home the romp home folder
 * @returns `<home>/timeline/messages.jsonl`
 */
export function postalLogPath(home: string): string {
  return join(home, 'timeline', 'messages.jsonl');
}

/**
 * Reads romp's postal log, `timeline/messages.jsonl`. A missing log is an empty one; bad lines are
 * diagnostics (as in a transcript) and rows without `id` / `from_id` are skipped.
 * @param home the romp home folder
 * @param onDiagnostic receives the read stage's diagnostics (a missing file gives none)
 * @returns the rows by message id
 */
export async function readPostalLog(home: string, onDiagnostic: OnDiagnostic): Promise<Map<string, PostalRow>> {
  const read = await readTranscript(postalLogPath(home));
  const rows = new Map<string, PostalRow>();
  for (const d of read.diagnostics) if (d.code !== 'FILE_UNREADABLE') onDiagnostic(d);
  for (const { record } of read.records) {
    const { id, from_id: from, to_id: to } = record as Record<string, unknown>;
    if (typeof id !== 'string' || typeof from !== 'string') continue;
    const t = parseTimestamp(record['t'] ?? record['ts']);
    rows.set(id, { id, from_id: from, to_id: typeof to === 'string' ? to : '', t });
  }
  return rows;
}

/**
 * The postal lookup of the seed ("Postal detection"): message id → the sender's rompUuid, the session
 * whose anchor sid (`files[0].fsid`) is the row's `from_id`; without such an entry, the `from_id`
 * itself; `null` when the id is not in the log.
 * @param rows the postal log
 * @param entries the registry
 * @returns the lookup
 */
export function postalResolver(rows: Map<string, PostalRow>, entries: RegistryEntry[]): ResolvePeer {
  const byAnchor = new Map(entries.map((e) => [e.files[0]?.fsid ?? '', e.rompUuid]));
  return (id) => {
    const row = rows.get(id);
    if (row === undefined) return null;
    return byAnchor.get(row.from_id) ?? row.from_id;
  };
}
