import type { RawRecord } from '../read/parse-line.ts';

/**
 * One JSONL line as a record, for discovery's quick looks at a file (no diagnostics: `romp ls` only
 * skips what it cannot read; `parseLine` is the reader's strict path).
 * @param line one line's text
 * @returns the object, or undefined for invalid JSON or a value that is not an object
 */
export function parseRecord(line: string): RawRecord | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as RawRecord) : undefined;
  } catch {
    return undefined;
  }
}
