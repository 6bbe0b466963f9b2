// `npm run test:duckdb`: docs/lake.md's DuckDB SQL, run by DuckDB itself on the lakes `romp export`
// writes from the corpus laid out as two overlapping machines (Parquet and gzipped NDJSON). The default
// tests read the same lakes back with hyparquet (tests/export/lake.test.ts); this keeps the SQL of the
// docs honest. DuckDB's native binary (~70 MB) lives in duckdb/node_modules, not in the main install.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DuckDBInstance } from '@duckdb/node-api';
import { discoverTranscripts } from '../dist/src/discover/discover-transcripts.js';
import { countUsage } from '../dist/src/usage/count-usage.js';
import { corpusPresent } from '../dist/tests/helpers/corpus.js';
import { corpusMachines } from '../dist/tests/helpers/corpus-machines.js';
import { exportMachines } from '../dist/tests/helpers/read-lake.js';
import { tempDir } from '../dist/tests/helpers/temp-dir.js';

const skip = corpusPresent ? false : 'the corpus (../shared/corpus) is absent';

async function duckdb(sql) {
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  try {
    return (await connection.runAndReadAll(sql)).getRowObjectsJson();
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

// docs/lake.md, "DuckDB": the responses view, summed
const usageQuery = (
  glob,
  reader,
) => `WITH facts AS (SELECT * FROM ${reader}('${glob}', hive_partitioning = true, union_by_name = true)),
  u AS (SELECT * FROM facts QUALIFY row_number() OVER (PARTITION BY key ORDER BY input_tokens + output_tokens + cache_creation_input_tokens + cache_read_input_tokens DESC, t) = 1)
  SELECT count(*)::BIGINT AS responses, sum(input_tokens)::BIGINT AS input_tokens, sum(output_tokens)::BIGINT AS output_tokens,
    sum(cache_creation_input_tokens)::BIGINT AS cache_creation_input_tokens, sum(cache_read_input_tokens)::BIGINT AS cache_read_input_tokens, sum(cost_usd) AS cost_usd
  FROM u WHERE NOT (is_sidechain AND message_id IN (SELECT message_id FROM u WHERE NOT is_sidechain))`;

for (const format of ['parquet', 'ndjson']) {
  test(`DuckDB on the ${format} lake of two overlapping machines: romp usage over the union`, { skip }, async () => {
    const { a, b } = corpusMachines();
    const lake = tempDir('romp-duckdb-');
    await exportMachines(lake, format, [
      ['a', a],
      ['b', b],
    ]);
    const files = [...(await discoverTranscripts(a)).files, ...(await discoverTranscripts(b)).files].map((f) => f.path);
    const { total } = await countUsage(files);
    const glob = `${lake}/usage_facts/**/*.${format === 'parquet' ? 'parquet' : 'ndjson.gz'}`;
    const [row] = await duckdb(usageQuery(glob, format === 'parquet' ? 'read_parquet' : 'read_ndjson_auto'));
    for (const field of [
      'responses',
      'input_tokens',
      'output_tokens',
      'cache_creation_input_tokens',
      'cache_read_input_tokens',
    ])
      assert.equal(Number(row[field]), total[field], field);
    assert.equal(Math.round(Number(row.cost_usd) * 100), Math.round(total.cost_usd * 100));
    if (format === 'parquet') {
      const machines = await duckdb(
        `SELECT DISTINCT machine FROM read_parquet('${lake}/sessions/**/*.parquet', hive_partitioning = true) ORDER BY machine`,
      );
      assert.deepEqual(
        machines.map((m) => m.machine),
        ['a', 'b'],
      );
    }
  });
}
