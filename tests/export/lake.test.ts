/**
 * `romp export --format parquet|ndjson` over the corpus laid out as two machines whose sessions overlap
 * (one grown further on `b`), read back as an engine would (hyparquet, `tests/helpers/read-lake.ts`: docs/lake.md's
 * de-duplication; DuckDB runs that SQL itself in `npm run test:duckdb`): the de-duplicated usage equals `countUsage`
 * over the union of both machines' files, a second export adds nothing, a killed export leaves no visible part.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { discoverTranscripts } from '../../src/discover/discover-transcripts.ts';
import { countUsage } from '../../src/usage/count-usage.ts';
import { corpusPresent } from '../helpers/corpus.ts';
import { corpusMachines } from '../helpers/corpus-machines.ts';
import { dedupResponses, exportMachines, readLake, sumResponses } from '../helpers/read-lake.ts';
import { runCli } from '../helpers/run-cli.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const skip = corpusPresent ? false : 'the corpus (../shared/corpus) is absent';
const BIN = resolve(fileURLToPath(import.meta.url), '../../../src/cli/bin.js');

/** docs/lake.md's de-duplicated usage of a lake, summed. */
async function lakeUsage(lake: string, format: 'parquet' | 'ndjson'): Promise<Record<string, number>> {
  return sumResponses(dedupResponses(await readLake(lake, 'usage_facts', format)));
}

async function unionUsage(a: string, b: string): Promise<Awaited<ReturnType<typeof countUsage>>['total']> {
  const files = [...(await discoverTranscripts(a)).files, ...(await discoverTranscripts(b)).files].map((f) => f.path);
  return (await countUsage(files)).total;
}

function assertSame(row: Record<string, number>, total: Awaited<ReturnType<typeof unionUsage>>): void {
  assert.equal(Number(row['responses']), total.responses);
  assert.equal(Number(row['input_tokens']), total.input_tokens);
  assert.equal(Number(row['output_tokens']), total.output_tokens);
  assert.equal(Number(row['cache_creation_input_tokens']), total.cache_creation_input_tokens);
  assert.equal(Number(row['m5']), total.cache_creation_5m);
  assert.equal(Number(row['h1']), total.cache_creation_1h);
  assert.equal(Number(row['cache_read_input_tokens']), total.cache_read_input_tokens);
  assert.equal(Math.round(Number(row['cost_usd']) * 100), Math.round(total.cost_usd * 100));
}

test('--since a day that is none (30 February) is refused before anything is written', async () => {
  const out = join(tempDir('romp-lake-'), 'lake');
  const run = await runCli([
    'export',
    '--format',
    'ndjson',
    '--out',
    out,
    '--projects',
    tempDir('romp-projects-'),
    '--since',
    '2025-02-30',
  ]);
  assert.equal(run.code, 2);
  assert.equal(run.err, 'romp: --since 2025-02-30: give a day as YYYY-MM-DD or YYYYMMDD\n');
  assert.deepEqual(readdirSync(join(out, '..')), []);
});

test('a lake another layout version wrote (usage keys of another form) is refused, nothing written', async () => {
  const out = join(tempDir('romp-lake-'), 'lake');
  mkdirSync(join(out, '_romp'), { recursive: true });
  // as romp wrote it when usage_facts keys were message.id NUL requestId
  const old = join(out, '_romp', 'manifest-laptop.json');
  writeFileSync(old, JSON.stringify({ version: 1, machine: 'laptop', files: [] }));
  const projects = tempDir('romp-projects-');
  mkdirSync(join(projects, '-work'), { recursive: true });
  writeFileSync(
    join(projects, '-work', 's.jsonl'),
    `${JSON.stringify({ type: 'user', uuid: 'u1', parentUuid: null, sessionId: 's', timestamp: '2026-03-01T10:00:00Z', message: { role: 'user', content: 'hi' } })}\n`,
  );
  const run = await runCli(['export', '--format', 'ndjson', '--out', out, '--projects', projects]);
  assert.equal(run.code, 2);
  assert.match(
    run.err,
    /_romp\/manifest-laptop\.json: layout version 1, this romp writes 2; .*export into a new folder\n$/,
  );
  assert.deepEqual(readdirSync(out), ['_romp']);
  assert.deepEqual(readdirSync(join(out, '_romp')), ['manifest-laptop.json']);
});

test('two overlapping machines: the de-duplicated Parquet usage is romp usage over the union', { skip }, async () => {
  const { a, b } = corpusMachines();
  const lake = tempDir('romp-lake-');
  for (const report of await exportMachines(lake, 'parquet', [
    ['a', a],
    ['b', b],
  ]))
    assert.ok(report.sessions > 5);
  const total = await unionUsage(a, b);
  assert.ok(total.responses > 100 && total.cost_usd > 1, 'the corpus holds priced responses');
  assertSame(await lakeUsage(lake, 'parquet'), total);
  // the copies are there twice: without the de-dup the sums would be off
  const raw = (await readLake(lake, 'usage_facts', 'parquet')).length;
  assert.ok(raw > total.responses);
  // the partitions are Hive-style: machine and date are columns
  assert.deepEqual([...new Set((await readLake(lake, 'sessions', 'parquet')).map((r) => r['machine']))].sort(), [
    'a',
    'b',
  ]);
  // every entity has rows; the copies on both machines gave the same keys
  for (const entity of [
    'sessions',
    'turns',
    'atoms',
    'blocks',
    'tool_calls',
    'usage_facts',
    'subagents',
    'diagnostics',
  ]) {
    const machines = new Map<unknown, Set<unknown>>();
    for (const r of await readLake(lake, entity, 'parquet'))
      machines.set(r['key'], (machines.get(r['key']) ?? new Set()).add(r['machine']));
    assert.ok(machines.size > 0, entity);
    if (entity !== 'diagnostics' && entity !== 'subagents')
      assert.ok(
        [...machines.values()].some((m) => m.size === 2),
        `${entity}: no key on both machines`,
      );
  }
  // a second export of each machine finds nothing new and writes nothing
  const before = readdirSync(lake, { recursive: true }).length;
  for (const again of await exportMachines(lake, 'parquet', [
    ['a', a],
    ['b', b],
  ]))
    assert.deepEqual([again.sessions, again.parts], [0, 0]);
  assert.equal(readdirSync(lake, { recursive: true }).length, before);
  assert.equal((await readLake(lake, 'usage_facts', 'parquet')).length, raw);
});

test('NDJSON: the same rows, gzipped, read back to the same totals', { skip }, async () => {
  const { a, b } = corpusMachines();
  const lake = tempDir('romp-lake-ndjson-');
  for (const [machine, projects] of [
    ['a', a],
    ['b', b],
  ] as const)
    assert.equal(
      (await runCli(['export', '--format', 'ndjson', '--out', lake, '--projects', projects, '--machine', machine]))
        .code,
      0,
    );
  assertSame(await lakeUsage(lake, 'ndjson'), await unionUsage(a, b));
});

test('a killed export leaves no visible part file, and the next run completes the lake', { skip }, async () => {
  const { a } = corpusMachines();
  const lake = tempDir('romp-lake-killed-');
  // the export dies (SIGKILL) at its first rename of a part into place
  const hook = join(tempDir('romp-hook-'), 'die-at-rename.mjs');
  writeFileSync(
    hook,
    "import fs from 'node:fs/promises'; import { syncBuiltinESMExports } from 'node:module';\nconst rename = fs.rename; fs.rename = async (from, to) => { if (String(to).endsWith('.parquet')) process.kill(process.pid, 'SIGKILL'); return rename(from, to); }; syncBuiltinESMExports();\n",
  );
  const killed = spawnSync(
    process.execPath,
    ['--import', hook, BIN, 'export', '--format', 'parquet', '--out', lake, '--projects', a, '--machine', 'a'],
    { encoding: 'utf8' },
  );
  assert.equal(killed.signal, 'SIGKILL');
  const files = readdirSync(lake, { recursive: true }).map(String);
  assert.ok(
    files.some((f) => f.endsWith('.tmp')),
    'the part was being written',
  );
  assert.deepEqual(
    files.filter((f) => f.endsWith('.parquet')),
    [],
  );
  assert.ok(!files.some((f) => f.includes('manifest')), 'no manifest: nothing counts as exported');
  const run = await runCli(['export', '--format', 'parquet', '--out', lake, '--projects', a, '--machine', 'a']);
  assert.equal(run.code, 0, run.err);
  assertSame(
    await lakeUsage(lake, 'parquet'),
    (await countUsage((await discoverTranscripts(a)).files.map((f) => f.path))).total,
  );
});

test('a session that grew is exported again, alone, and the lake keeps its final snapshot', { skip }, async () => {
  const { a, b, grown } = corpusMachines();
  const lake = tempDir('romp-lake-grown-');
  const first = JSON.parse(
    (await runCli(['export', '--format', 'parquet', '--out', lake, '--projects', a, '--machine', 'a', '--json'])).out,
  );
  // the cut session goes on on machine a: its file is appended to (the copy on b is the whole file)
  copyFileSync(grown, join(a, relative(b, grown)));
  const second = JSON.parse(
    (await runCli(['export', '--format', 'parquet', '--out', lake, '--projects', a, '--machine', 'a', '--json'])).out,
  );
  assert.equal(second.sessions, 1);
  assert.equal(second.skipped, first.sessions - 1 + first.skipped);
  assertSame(
    await lakeUsage(lake, 'parquet'),
    (await countUsage((await discoverTranscripts(a)).files.map((f) => f.path))).total,
  );
});
