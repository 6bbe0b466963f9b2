import { readEdges } from './read-edges.ts';

/**
 * The JSON objects among the complete lines in a file's first `bytes`: what a transcript's head says
 * of it (its `sessionId`, its first uuids), for choosing files without reading them whole. A line that
 * is not a JSON object is left out; an unreadable file gives none.
 * @param path a transcript file
 * @param bytes how much of its start to read (default 16 KiB)
 * @returns the parsed lines, in file order (untrusted values: read fields, never use them as keys)
 */
export async function headRecords(path: string, bytes: number = 16 * 1024): Promise<Array<Record<string, unknown>>> {
  let head: string[];
  try {
    head = (await readEdges(path, bytes, 0)).head;
  } catch {
    return [];
  }
  const records: Array<Record<string, unknown>> = [];
  for (const line of head) {
    try {
      const record = JSON.parse(line) as unknown;
      if (typeof record === 'object' && record !== null) records.push(record as Record<string, unknown>);
    } catch {
      // not JSON: the next line may be
    }
  }
  return records;
}
