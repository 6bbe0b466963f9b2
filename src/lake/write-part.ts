import { createHash } from 'node:crypto';
import { rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Cell } from '../rows/row-types.ts';
import { columnType, parquetCell } from './lake-columns.ts';
import { makeDir } from '../fs/make-dir.ts';

/** The lake's two encodings. */
export type LakeFormat = 'parquet' | 'ndjson';

/** A part file written. */
export interface WrittenPart {
  /** Path relative to the lake's folder: `<entity>/machine=<name>/date=<YYYY-MM-DD>/part-<hash>.<ext>`. */
  path: string;
  rows: number;
  bytes: number;
}

/**
 * A partition value as Hive paths take it: characters other than letters, digits, `.`, `_` and `-`
 * become `%XX` (UTF-8), so any machine name is one path segment.
 * @param value the value
 * @returns the escaped value
 */
export function partitionValue(value: string): string {
  return [...Buffer.from(value, 'utf8')]
    .map((b) =>
      /[A-Za-z0-9._-]/.test(String.fromCharCode(b))
        ? String.fromCharCode(b)
        : `%${b.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');
}

/**
 * Encodes rows as one Parquet file (hyparquet-writer, snappy; column types by `columnType`) or as
 * gzipped NDJSON (one row per line, columns in the first row's order).
 * @param rows the rows (at least one), every row with the same columns
 * @param format parquet or ndjson
 * @returns the file's bytes
 */
export async function encodeRows(
  rows: ReadonlyArray<Readonly<Record<string, Cell>>>,
  format: LakeFormat,
): Promise<Buffer> {
  if (format === 'ndjson') return gzipSync(rows.map((r) => `${JSON.stringify(r)}\n`).join(''));
  const { parquetWriteBuffer } = await import('hyparquet-writer');
  const columns = Object.keys(rows[0] ?? {});
  const buffer = parquetWriteBuffer({
    columnData: columns.map((name) => ({
      name,
      type: columnType(name),
      data: rows.map((r) => parquetCell(name, r[name])),
    })),
    createdBy: 'romp',
  });
  return Buffer.from(buffer);
}

/**
 * Writes one part of an entity's dataset, Hive-style: `<dir>/<entity>/machine=<m>/date=<d>/part-<hash>.parquet`
 * (`.ndjson.gz`), `hash` the first 16 hex of the SHA-256 of its bytes, so the same rows make the same
 * file. The bytes go to a hidden `.part-….tmp` beside it first and are renamed into place: a run
 * killed midway leaves no part a reader's `*.parquet` glob sees.
 * @param dir the lake's folder
 * @param entity the dataset
 * @param machine the machine's name
 * @param date the partition's day, `YYYY-MM-DD`
 * @param rows the rows (none: nothing is written)
 * @param format parquet or ndjson
 * @returns the part, or undefined without rows
 */
export async function writePart(
  dir: string,
  entity: string,
  machine: string,
  date: string,
  rows: ReadonlyArray<Readonly<Record<string, Cell>>>,
  format: LakeFormat,
): Promise<WrittenPart | undefined> {
  if (rows.length === 0) return undefined;
  const bytes = await encodeRows(rows, format);
  const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 16);
  const folder = join(entity, `machine=${partitionValue(machine)}`, `date=${date}`);
  const name = `part-${hash}.${format === 'parquet' ? 'parquet' : 'ndjson.gz'}`;
  makeDir(join(dir, folder));
  const temporary = join(dir, folder, `.${name}.${process.pid}.tmp`);
  await writeFile(temporary, bytes);
  await rename(temporary, join(dir, folder, name));
  return { path: join(folder, name), rows: rows.length, bytes: bytes.length };
}
