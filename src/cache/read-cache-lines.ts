import type { OnDiagnostic } from '../diagnostics/diagnostic.ts';
import type { RawRecord } from '../read/parse-line.ts';
import { readTranscriptLines } from '../read/read-transcript.ts';
import { parseTimestamp } from '../read/parse-timestamp.ts';
import type { CacheLine } from './explain-cache-writes.ts';

/**
 * Reads the lines of transcripts as the cache forensics need them (`CacheLine`): each record with a
 * `type`, its uuid and parent, time, chain (`main`, or a subagent's `agentId`), `message.id`, whether it
 * is a prompt (a user line of the main chain that is not only tool results, not `isMeta`, not a compact
 * summary), whether it is a `compact_boundary`, a stream's `system/init` (its model and tool list), and
 * its `cwd`. Stream frames (`stream-json`) take their chain from `parent_tool_use_id`. Tool outputs are
 * skipped unparsed.
 * @param files transcript paths
 * @param onDiagnostic receives what the read stage reports
 * @returns the lines, file by file, in file order
 */
export async function readCacheLines(
  files: readonly string[],
  onDiagnostic: OnDiagnostic = () => {},
): Promise<CacheLine[]> {
  const out: CacheLine[] = [];
  for (const file of files) {
    await readTranscriptLines(file, (record, line) => void out.push(cacheLine(record, file, line)), onDiagnostic, {
      skipUnread: true,
    });
  }
  return out;
}

function cacheLine(record: RawRecord, file: string, line: number): CacheLine {
  const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
  const type = str(record['type']) ?? '';
  const message = record['message'] as { id?: unknown; content?: unknown } | undefined;
  const sidechain = record['isSidechain'] === true;
  const content = message?.content;
  const prompt =
    type === 'user' &&
    !sidechain &&
    record['isMeta'] !== true &&
    record['isCompactSummary'] !== true &&
    (typeof content === 'string' ||
      (Array.isArray(content) && content.some((b) => (b as { type?: unknown } | null)?.type !== 'tool_result')));
  return {
    file,
    line,
    uuid: str(record['uuid']),
    parentUuid: str(record['parentUuid']) ?? str(record['logicalParentUuid']),
    type,
    t: parseTimestamp(record['timestamp']),
    chain:
      typeof record['parent_tool_use_id'] === 'string'
        ? `task ${record['parent_tool_use_id']}`
        : sidechain
          ? (str(record['agentId']) ?? 'sidechain')
          : 'main',
    messageId: type === 'assistant' ? str(message?.id) : undefined,
    prompt,
    compactBoundary: type === 'system' && record['subtype'] === 'compact_boundary',
    init:
      type === 'system' && record['subtype'] === 'init'
        ? JSON.stringify([
            record['model'],
            Array.isArray(record['tools']) ? [...(record['tools'] as unknown[]).map(String)].sort() : null,
          ])
        : undefined,
    cwd: str(record['cwd']),
  };
}
