/**
 * The lake read back in plain JavaScript, as an engine would: every Parquet part of an entity with
 * hyparquet (the pure-JS reader by hyparquet-writer's author; no native engine in the default tests),
 * or every gzipped NDJSON part, with the Hive partitions of its path (`machine=a/date=2026-03-01/`) as
 * columns. DuckDB runs docs/lake.md's own SQL on the same lakes in `npm run test:duckdb` (duckdb/).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { asyncBufferFromFile, parquetReadObjects } from 'hyparquet';
import { runCli } from './run-cli.ts';

/** One row, with its partition columns. */
export type LakeRow = Record<string, unknown>;

/**
 * Every row of one entity of a lake.
 * @param lake the lake folder (`romp export --out`)
 * @param entity `usage_facts`, `sessions`, …
 * @param format which parts to read
 * @returns the rows of every part, 64-bit integers as numbers
 */
export async function readLake(lake: string, entity: string, format: 'parquet' | 'ndjson'): Promise<LakeRow[]> {
  const dir = join(lake, entity);
  const suffix = format === 'parquet' ? '.parquet' : '.ndjson.gz';
  const rows: LakeRow[] = [];
  for (const part of readdirSync(dir, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith(suffix))
    .sort()) {
    const partitions = Object.fromEntries(
      part
        .split('/')
        .slice(0, -1)
        .map((segment) => segment.split('=') as [string, string]),
    );
    const path = join(dir, part);
    const read: LakeRow[] =
      format === 'parquet'
        ? ((await parquetReadObjects({ file: await asyncBufferFromFile(path) })) as LakeRow[])
        : gunzipSync(readFileSync(path))
            .toString('utf8')
            .split('\n')
            .filter((line) => line !== '')
            .map((line) => JSON.parse(line) as LakeRow);
    for (const row of read) {
      const plain: LakeRow = Object.create(null) as LakeRow;
      for (const [k, v] of Object.entries(row)) plain[k] = typeof v === 'bigint' ? Number(v) : v;
      rows.push(Object.assign(plain, partitions));
    }
  }
  return rows;
}

const tokens = (r: LakeRow): number =>
  Number(r['input_tokens']) +
  Number(r['output_tokens']) +
  Number(r['cache_creation_input_tokens']) +
  Number(r['cache_read_input_tokens']);

/**
 * docs/lake.md's `responses` view: one row per `key` (its largest snapshot, the earliest on a tie), and a
 * sidechain replay of a main response left out.
 * @param facts the `usage_facts` rows
 * @returns the de-duplicated responses
 */
export function dedupResponses(facts: readonly LakeRow[]): LakeRow[] {
  const best = new Map<string, LakeRow>();
  for (const r of facts) {
    const key = String(r['key']);
    const kept = best.get(key);
    if (
      kept === undefined ||
      tokens(r) > tokens(kept) ||
      (tokens(r) === tokens(kept) && Number(r['t']) < Number(kept['t']))
    )
      best.set(key, r);
  }
  const u = [...best.values()];
  const main = new Set(u.filter((r) => r['is_sidechain'] !== true).map((r) => r['message_id']));
  return u.filter((r) => !(r['is_sidechain'] === true && main.has(r['message_id'])));
}

/** The sums the tests compare with `countUsage`'s total. */
export function sumResponses(responses: readonly LakeRow[]): Record<string, number> {
  const sum = (field: string): number => responses.reduce((n, r) => n + Number(r[field] ?? 0), 0);
  return {
    responses: responses.length,
    input_tokens: sum('input_tokens'),
    output_tokens: sum('output_tokens'),
    cache_creation_input_tokens: sum('cache_creation_input_tokens'),
    m5: sum('ephemeral_5m_input_tokens'),
    h1: sum('ephemeral_1h_input_tokens'),
    cache_read_input_tokens: sum('cache_read_input_tokens'),
    cost_usd: sum('cost_usd'),
  };
}

/**
 * `romp export --format FORMAT --out LAKE --json` of each machine's projects folder in turn.
 * @param lake the lake folder
 * @param format `parquet` or `ndjson`
 * @param machines each machine's name and projects folder
 * @returns each export's JSON report; throws on an exit code other than 0
 */
export async function exportMachines(
  lake: string,
  format: 'parquet' | 'ndjson',
  machines: ReadonlyArray<readonly [string, string]>,
): Promise<Array<{ sessions: number; parts: number }>> {
  const reports = [];
  for (const [machine, projects] of machines) {
    const run = await runCli([
      'export',
      '--format',
      format,
      '--out',
      lake,
      '--projects',
      projects,
      '--machine',
      machine,
      '--json',
    ]);
    if (run.code !== 0) throw new Error(`romp export ${machine}: exit ${run.code}: ${run.err}`);
    reports.push(JSON.parse(run.out) as { sessions: number; parts: number });
  }
  return reports;
}
