import { join } from 'node:path';
import type { OnDiagnostic } from '../diagnostics/diagnostic.ts';
import { readTranscript } from '../read/read-transcript.ts';
import { parseTimestamp } from '../read/parse-timestamp.ts';
import type { IdleSpan } from '../tree/insert-idle.ts';

/**
 * Where romp's state log of one Claude session lives.
 * @param home the romp home folder
 * @param sid the Claude session id (a transcript's fsid)
 * @returns `<home>/states/<sid>.jsonl`
 */
export function stateLogPath(home: string, sid: string): string {
  return join(home, 'states', `${sid}.jsonl`);
}

/**
 * Reads `states/<sid>.jsonl` (rows `{t | ts, state}`, state `working` / `idle` / `waiting`, unknown
 * states kept) and returns its idle spans: from each transition into `idle` to the next transition to
 * another state. Rows are taken in time order; rows without a time are skipped. A missing log has none.
 * @param home the romp home folder
 * @param sid the Claude session id (a transcript's fsid)
 * @param onDiagnostic receives bad lines of the log
 * @returns the spans, oldest first
 */
export async function readIdleSpans(home: string, sid: string, onDiagnostic: OnDiagnostic): Promise<IdleSpan[]> {
  const read = await readTranscript(stateLogPath(home, sid));
  for (const d of read.diagnostics) if (d.code !== 'FILE_UNREADABLE') onDiagnostic(d);
  const rows = read.records
    .map(({ record }) => ({ t: parseTimestamp(record['t'] ?? record['ts']), state: String(record['state']) }))
    .filter((r) => !Number.isNaN(r.t))
    .sort((a, b) => a.t - b.t);
  const spans: IdleSpan[] = [];
  let open: IdleSpan | undefined;
  for (const row of rows) {
    if (row.state === 'idle') {
      if (open === undefined) open = { sid, t: row.t, end: undefined };
    } else if (open !== undefined) {
      spans.push({ ...open, end: row.t });
      open = undefined;
    }
  }
  if (open !== undefined) spans.push(open);
  return spans;
}
