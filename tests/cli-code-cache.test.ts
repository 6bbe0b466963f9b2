/**
 * The `romp` bin's start-up (build/bundle-cli.ts, src/cli/code-cache.ts): the bundle runs with V8's code
 * cache when it was made from the very same bytes and without it otherwise, `romp show` loads neither
 * Node's ES module loader nor `node:crypto` nor `node:child_process`, and `romp usage` (issue 16), `romp index`,
 * `search`, `sql` and `ls` (issue 17) run from bundles of their own.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { EXAMPLE_SESSION } from '../src/cli/load-session.ts';
import {
  BUNDLE_FILE,
  BUNDLE_IMPORT,
  CACHE_FILE,
  codeCacheFile,
  OWN_BUNDLES,
  runBundle,
  USAGE_WORKER_BUNDLE,
  USAGE_WORKER_START,
  useUsageFlags,
} from '../src/cli/code-cache.ts';
import { unpackResponses } from '../src/usage/count-usage.ts';
import type { WorkerMessage } from '../src/usage/usage-worker.ts';
import { tempDir } from './helpers/temp-dir.ts';

const CLI = fileURLToPath(new URL('../src/cli/', import.meta.url));

test('the built bundle takes the cache written beside it', () => {
  const ran = runBundle(join(CLI, BUNDLE_FILE), join(CLI, CACHE_FILE));
  assert.equal(ran.cached, true);
  assert.equal(typeof (ran.exports as { cli: unknown }).cli, 'function');
});

test('a cache of other bytes, of the same length, is not used', () => {
  const dir = tempDir('romp-code-cache-');
  const bundle = join(dir, 'b.cjs');
  const cache = join(dir, 'b.cache');
  writeFileSync(bundle, 'module.exports = { n: 1 };');
  writeFileSync(cache, codeCacheFile(runBundle(bundle, undefined)));
  assert.equal(runBundle(bundle, cache).cached, true);
  writeFileSync(bundle, 'module.exports = { n: 2 };');
  const ran = runBundle(bundle, cache);
  assert.deepEqual([ran.exports, ran.cached], [{ n: 2 }, false]);
});

test('a cache V8 rejects, a cut one or none: the bundle runs all the same', () => {
  const dir = tempDir('romp-code-cache-');
  const bundle = join(dir, 'b.cjs');
  const cache = join(dir, 'b.cache');
  // a source this process has not compiled yet: V8 would take a compiled one from its own memory
  const source = Buffer.from('module.exports = { n: 3 };');
  writeFileSync(bundle, source);
  const length = Buffer.alloc(4);
  length.writeUInt32LE(source.length);
  // the bundle's bytes right, V8's data garbage: V8 checks its own header and rejects it
  writeFileSync(cache, Buffer.concat([length, source, Buffer.alloc(2000, 7)]));
  const ran = runBundle(bundle, cache);
  assert.deepEqual([ran.exports, ran.cached, ran.script.cachedDataRejected], [{ n: 3 }, false, true]);
  writeFileSync(cache, Buffer.concat([length, source]));
  assert.equal(runBundle(bundle, cache).cached, false);
  assert.deepEqual(runBundle(bundle, join(dir, 'none.cache')).exports, { n: 3 });
});

test("the bundle's import() resolves against the bundle's own path", async () => {
  const dir = tempDir('romp-code-cache-');
  writeFileSync(join(dir, 'x.mjs'), 'export const answer = 42;');
  writeFileSync(join(dir, 'b.cjs'), `module.exports = { load: () => ${BUNDLE_IMPORT}('./x.mjs') };`);
  const { load } = runBundle(join(dir, 'b.cjs'), undefined).exports as { load: () => Promise<{ answer: number }> };
  assert.equal((await load()).answer, 42);
});

test("the bundle's import() of a package or Node module is a require(), giving what import() gives", async () => {
  const dir = tempDir('romp-code-cache-');
  const module = (name: string, files: Record<string, string>): void => {
    mkdirSync(join(dir, 'node_modules', name), { recursive: true });
    for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, 'node_modules', name, file), text);
  };
  module('cjs-pkg', { 'package.json': '{"main":"i.js"}', 'i.js': 'module.exports = { n: 5 };' });
  module('esm-pkg', {
    'package.json': '{"type":"module","main":"i.js"}',
    'i.js': 'export const x = 1; export default 7;',
  });
  module('tla-pkg', { 'package.json': '{"type":"module","main":"i.js"}', 'i.js': 'export default await 8;' });
  writeFileSync(join(dir, 'b.cjs'), `module.exports = { load: (s) => ${BUNDLE_IMPORT}(s) };`);
  const { load } = runBundle(join(dir, 'b.cjs'), undefined).exports as {
    load: (s: string) => Promise<Record<string, unknown>>;
  };
  const tag = (m: object): string => Object.prototype.toString.call(m);
  const path = await load('node:path');
  // a plain object, not the ES module loader's namespace
  assert.deepEqual(
    [tag(path), path['default'] === (await import('node:path')).default, typeof path['join']],
    ['[object Object]', true, 'function'],
  );
  const cjs = await load('cjs-pkg');
  assert.deepEqual([tag(cjs), cjs['n'], cjs['default']], ['[object Object]', 5, { n: 5 }]);
  const esm = await load('esm-pkg');
  assert.deepEqual([esm['default'], esm['x']], [7, 1]);
  // top-level await: require refuses it, import() loads it
  assert.equal((await load('tla-pkg'))['default'], 8);
  await assert.rejects(load('no-such-pkg'), { code: 'MODULE_NOT_FOUND' });
});

/** What `romp ARGS` (the bin) prints, and the modules its process loaded (`process.moduleLoadList`). */
function binRun(args: string[]): { out: string; loaded: Set<string> } {
  const dir = tempDir('romp-code-cache-');
  const preload = join(dir, 'modules.cjs');
  const list = join(dir, 'modules.txt');
  writeFileSync(
    preload,
    `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(list)}, process.moduleLoadList.join('\\n')));`,
  );
  const out = execFileSync(process.execPath, ['--require', preload, join(CLI, 'romp.cjs'), ...args], {
    encoding: 'utf8',
  });
  const loaded = new Set(readFileSync(list, 'utf8').split('\n'));
  assert.ok(loaded.has('NativeModule vm'), 'the list is of this process'); // the bin's, for the bundle
  return { out, loaded };
}

test('romp show loads no ES module loader, node:crypto or node:child_process', () => {
  const { out, loaded } = binRun(['show', EXAMPLE_SESSION]);
  assert.match(out, /^4 turns, 22 atoms/m);
  // Node loads its ES module loader's code for any main module; the translators only when it loads an ES module
  for (const name of ['internal/modules/esm/translators', 'crypto', 'child_process']) {
    assert.equal(loaded.has(`NativeModule ${name}`), false, name);
  }
});

test('romp usage runs from its own bundle, with its cache: no ES module loader, node:crypto or a worker', () => {
  const usage = OWN_BUNDLES.get('./run-usage.js') ?? '';
  // made under `romp usage`'s V8 flags, the cache is taken only under them
  assert.equal(runBundle(join(CLI, `${usage}.cjs`), join(CLI, `${usage}.cache`)).cached, false);
  useUsageFlags();
  assert.equal(runBundle(join(CLI, `${usage}.cjs`), join(CLI, `${usage}.cache`)).cached, true);
  // without the index, and with a home that has none (the index's modules are not loaded to find that out)
  for (const index of [['--no-index'], ['--romp-home', tempDir('romp-code-cache-home-')]]) {
    const { out, loaded } = binRun(['usage', EXAMPLE_SESSION, '--json', ...index]);
    // the example's eight responses, as tests/cli.test.ts sums them
    const total = (JSON.parse(out) as { total: Record<string, number> }).total;
    assert.deepEqual([total['responses'], total['input_tokens'], total['output_tokens']], [8, 61, 424]);
    for (const name of ['internal/modules/esm/translators', 'crypto', 'worker_threads']) {
      assert.equal(loaded.has(`NativeModule ${name}`), false, `${index[0] ?? ''}: ${name}`);
    }
  }
});

/** Whether an own bundle takes its cache, asked in a process of its own (a test here sets the usage bundles' flags). */
function takesCache(specifier: string): boolean {
  const name = OWN_BUNDLES.get(specifier) ?? '';
  const [bundle, cache] = [join(CLI, `${name}.cjs`), join(CLI, `${name}.cache`)];
  const script = `import { runBundle } from ${JSON.stringify(join(CLI, 'code-cache.js'))};
    console.log(runBundle(${JSON.stringify(bundle)}, ${JSON.stringify(cache)}).cached);`;
  return execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }).trim() === 'true';
}

test('romp index, search, sql, ls and usage from an index run from bundles, with their caches: no ES module of dist/', () => {
  // made before the usage bundles, without their flags
  assert.deepEqual([takesCache('./run-index.js'), takesCache('./run-ls.js')], [true, true]);
  const root = tempDir('romp-code-cache-index-');
  const projects = join(root, 'projects');
  mkdirSync(join(projects, '-p'), { recursive: true });
  copyFileSync(EXAMPLE_SESSION, join(projects, '-p', 's.jsonl'));
  const home = ['--projects', projects, '--romp-home', join(root, 'home')];
  const runs = [
    binRun(['ls', '--json', ...home]),
    binRun(['index', '--json', ...home]),
    binRun(['search', 'TODOs', '--json', ...home]),
    binRun(['sql', 'SELECT count(*) AS n FROM turns', '--json', '--romp-home', join(root, 'home')]),
    binRun(['ls', '--json', ...home]),
    binRun(['usage', '--json', ...home]),
  ];
  const [listed, indexed, hits, rows, listedFromIndex, usage] = runs.map((r) => JSON.parse(r.out) as unknown);
  // the example's eight responses, as tests/cli.test.ts sums them, from the index's usage rows
  const total = (usage as { total: Record<string, number> }).total;
  assert.deepEqual([total['responses'], total['input_tokens'], total['output_tokens']], [8, 61, 424]);
  // the example's one file: five lines typed (`promptSource: typed`), four turns on its active path
  assert.equal((indexed as { added: number }).added, 1);
  // typed in the first prompt only (the tool's output has "TODO:")
  assert.deepEqual(
    (hits as Array<{ turn: number; author: string }>).map((h) => [h.turn, h.author]),
    [[1, 'human']],
  );
  assert.deepEqual(rows, [{ n: 4 }]);
  const prompts = (list: unknown): unknown => (list as Array<{ prompts: number }>).map((s) => s.prompts);
  assert.deepEqual([prompts(listed), listedFromIndex], [[5], listed]);
  // Node's ES module translators load with the first ES module, as `import("./run-index.js")` from dist/ was
  for (const { loaded } of runs) assert.equal(loaded.has('NativeModule internal/modules/esm/translators'), false);
});

test("countUsage's worker runs from its own bundle, with its cache, and posts a file's responses packed", async () => {
  useUsageFlags();
  assert.equal(
    runBundle(join(CLI, `${USAGE_WORKER_BUNDLE}.cjs`), join(CLI, `${USAGE_WORKER_BUNDLE}.cache`)).cached,
    true,
  );
  const { Worker } = await import('node:worker_threads');
  const next = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(join(CLI, USAGE_WORKER_START), { workerData: { usageWorker: true, next } });
  const messages: WorkerMessage[] = [];
  worker.on('message', (m: WorkerMessage) => messages.push(m));
  const exited = new Promise((resolve, reject) => worker.on('exit', resolve).on('error', reject));
  worker.postMessage({ files: [EXAMPLE_SESSION] });
  assert.equal(await exited, 0);
  let responses = 0;
  for (const m of messages) unpackResponses(m.packed, () => responses++);
  assert.deepEqual([messages.map((m) => m.file), responses], [[EXAMPLE_SESSION], 8]);
});
