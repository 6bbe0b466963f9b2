/**
 * `npm run build`'s second step: the command line's common path as one CommonJS file with V8's code
 * cache, and the `romp` bin that runs them (package.json `bin`), bundled by esbuild from what tsc wrote:
 * - `dist/src/cli/cli-bundle.cjs`: `cli.js` and what it imports. Loading ~30 small modules costs Node's
 *   ES module loader more CPU than running `romp show` on a small file; one CommonJS file does not start
 *   that loader at all.
 * - `dist/src/cli/cli-bundle.cache`: V8's code cache of the bundle after it ran `romp show` on the example
 *   (src/cli/code-cache.ts: used only for these very bytes, by the same V8 with the same flags).
 * - `dist/src/cli/romp.cjs`: src/cli/romp.ts, which runs the bundle with its cache.
 * - `dist/src/cli/usage-bundle.cjs` and `.cache`: `run-usage.js` and what it imports, a bundle of its own
 *   (`OWN_BUNDLES`), its cache made after it ran `romp usage` on the example and on an index of it: through Node's ES
 *   module loader its 62 modules cost `romp usage` more at start-up than the rest of the command line (issue 16). What
 *   it reads of the index (`src/index-db/`) is in it, run only when there is an index (esbuild keeps an `import()`'s
 *   module unrun until then): from `dist/` its 35 modules cost `romp usage` 30–40 ms of a 250 ms run.
 * - `dist/src/cli/usage-worker-bundle.cjs` and `.cache`: `countUsage`'s worker thread (src/usage/usage-worker.ts),
 *   its cache made after it read the example, and `usage-worker.cjs` (src/usage/usage-worker-start.ts), the
 *   script the thread starts with, which runs them: the worker's modules through the ES module loader cost
 *   50 ms of its start (issue 16).
 * - `dist/src/cli/index-bundle.cjs` and `.cache`: `run-index.js` (`romp index`, `search`, `sql`) and what it imports,
 *   the parse and the index included, its cache made after it indexed, searched and queried the example (issue 17:
 *   the ES module loader was 46 ms of a refresh that found nothing changed). Made before the usage bundles, without
 *   their V8 flags, and run without them.
 * - `dist/src/cli/ls-bundle.cjs` and `.cache`: `run-ls.js` (`romp ls`) and what it imports, the index's listings
 *   included, its cache made after it listed a projects folder of the example without an index and from one.
 *
 * What stays outside the bundle, loaded from tsc's `dist/` when a command needs it:
 * - every `run-*.js` command module but `run-show.js` (`romp watch`, `index`, … are imported
 *   when they run, as `cli.ts` does), with what they import; their `UserError` is told from the bundle's
 *   by a mark (cli-io.ts), not by class;
 * - a module outside `dist/src/cli/` that reads `import.meta.url` but as `new URL('../…', import.meta.url)` or
 *   `createRequire(import.meta.url)` (a package), which name the same from the bundle: `./x.js` would be the bundle's;
 * - every package but commander (plain JS, always used): libsql, markdown-it, highlight.js, … load only
 *   where used. commander's `node:child_process` (for executable subcommands, which romp has none of) is
 *   required when first called, not at start-up.
 * The library's `dist/` stays as tsc builds it; `dist/src/cli/bin.js` is the same program unbundled.
 */
import { build, type Plugin } from 'esbuild';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { cli as Cli } from '../src/cli/cli.ts';
import type * as RunIndex from '../src/cli/run-index.ts';
import type * as RunLs from '../src/cli/run-ls.ts';
import type { runUsage as RunUsage } from '../src/cli/run-usage.ts';
import {
  BUNDLE_FILE,
  BUNDLE_IMPORT,
  CACHE_FILE,
  codeCacheFile,
  OWN_BUNDLES,
  runBundle,
  USAGE_BUNDLE,
  USAGE_WORKER_BUNDLE,
  USAGE_WORKER_START,
  useUsageFlags,
} from '../src/cli/code-cache.ts';
import type { workFiles as WorkFiles } from '../src/usage/usage-worker.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLI = join(ROOT, 'dist', 'src', 'cli');
const BUNDLED_PACKAGES = new Set(['commander']);

/** Whether an absolute module path is loaded from `dist/` instead of being bundled (see above). */
function outside(path: string): boolean {
  if (dirname(path) === CLI) return /^run-(?!show\.js$)/.test(path.slice(CLI.length + 1));
  const source = readFileSync(path, 'utf8');
  // `new URL('../usage/x.js', import.meta.url)` names the same file from dist/src/usage/ and dist/src/cli/
  // and `createRequire(import.meta.url)` (romp requires packages only through it) finds a package in the same
  // `node_modules`: what both name is the same from `dist/src/X/` as from the bundle's `dist/src/cli/`
  const urls = [...source.matchAll(/import\.meta\.url/g)].length;
  const portable =
    [...source.matchAll(/new URL\((['"])\.\.\/[^'"]*\1, import\.meta\.url\)/g)].length +
    [...source.matchAll(/createRequire\(import\.meta\.url\)/g)].length;
  return urls > portable;
}

/** What the bundles `import()` (from `dist/`, a package, Node), as the split plugin meets them. */
const dynamicImports = new Set<string>();

/** A bundle's split: `out(path, dynamic)` says which `dist/` modules are left out (loaded from `dist/`). */
const split = (out: (path: string, dynamic: boolean) => boolean): Plugin => ({
  name: 'romp-split',
  setup(b) {
    b.onResolve({ filter: /^node:child_process$/ }, (args) =>
      /[\\/]node_modules[\\/]commander[\\/]/.test(args.importer)
        ? { path: args.path, namespace: 'romp-lazy' }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'romp-lazy' }, () => ({
      contents: "module.exports = { spawn: (...args) => require('node:child_process').spawn(...args) };",
      loader: 'js',
    }));
    b.onResolve({ filter: /.*/ }, (args) => {
      if (args.kind === 'entry-point') return undefined;
      if (!args.path.startsWith('.')) {
        const name = args.path.startsWith('@') ? args.path.split('/').slice(0, 2).join('/') : args.path.split('/')[0];
        if (args.kind === 'dynamic-import') dynamicImports.add(args.path);
        return BUNDLED_PACKAGES.has(name ?? '') || (args.path.startsWith('node:') && args.kind !== 'dynamic-import')
          ? undefined
          : { path: args.path, external: true };
      }
      if (!args.importer.startsWith(join(ROOT, 'dist') + sep)) return undefined;
      const path = resolve(args.resolveDir, args.path);
      if (!out(path, args.kind === 'dynamic-import')) return undefined;
      const from = relative(CLI, path).split(sep).join('/');
      const specifier = from.startsWith('.') ? from : `./${from}`;
      if (args.kind === 'dynamic-import') dynamicImports.add(specifier);
      return { path: specifier, external: true };
    });
  },
});

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  legalComments: 'none',
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: 'warning',
  write: false,
} as const;

const bundlePath = join(CLI, BUNDLE_FILE);
await bundleTo(join(CLI, 'cli.js'), bundlePath, outside);

const binPath = join(CLI, 'romp.cjs');
const [bin] = (
  await build({ ...common, entryPoints: [join(CLI, 'romp.js')], define: { 'import.meta.dirname': '__dirname' } })
).outputFiles;
writeFileSync(binPath, bin?.text ?? '');
chmodSync(binPath, 0o755);

// V8's cache of the bundle once it has run the common path, so that it holds the functions compiled then
const ran = runBundle(bundlePath, undefined);
const discard = { write: (): boolean => true };
const show = (ran.exports as { cli: typeof Cli }).cli;
if ((await show(['show', join(ROOT, 'examples', 'session.jsonl')], { stdout: discard, stderr: discard })) !== 0) {
  throw new Error('romp show examples/session.jsonl failed in the bundle');
}
writeFileSync(join(CLI, CACHE_FILE), codeCacheFile(ran));

// the command modules with bundles of their own, each cache made once the bundle has run its command on the example:
// the usage bundle's last, under the V8 flags `romp usage` runs with (its worker's too: V8 takes a cache made under
// the same flags only, and they stay set)
for (const [specifier, name] of [...OWN_BUNDLES].sort(([, a]) => (a === USAGE_BUNDLE ? 1 : -1))) {
  const path = join(CLI, `${name}.cjs`);
  if (name === USAGE_BUNDLE) useUsageFlags();
  await bundleTo(join(CLI, specifier), path, outside);
  const warm = runBundle(path, undefined);
  await warmUp(name, warm.exports);
  writeFileSync(join(CLI, `${name}.cache`), codeCacheFile(warm));
}

// countUsage's worker thread: its bundle, whose cache is made once it has read the example, and its start script
const workerPath = join(CLI, `${USAGE_WORKER_BUNDLE}.cjs`);
await bundleTo(join(ROOT, 'dist', 'src', 'usage', 'usage-worker.js'), workerPath, outside);
const warmWorker = runBundle(workerPath, undefined);
await (warmWorker.exports as { workFiles: typeof WorkFiles }).workFiles(
  [join(ROOT, 'examples', 'session.jsonl')],
  new Int32Array(1),
  () => {},
);
writeFileSync(join(CLI, `${USAGE_WORKER_BUNDLE}.cache`), codeCacheFile(warmWorker));
const [start] = (
  await build({
    ...common,
    entryPoints: [join(ROOT, 'dist', 'src', 'usage', 'usage-worker-start.js')],
    define: { 'import.meta.dirname': '__dirname' },
  })
).outputFiles;
writeFileSync(join(CLI, USAGE_WORKER_START), start?.text ?? '');

/** Runs an own bundle's command on the example (`romp usage` as a table and as JSON, and from an index of it; `romp
 * index`, `search` and `sql` on a projects folder of it; `romp ls` of that folder without an index and from one), so
 * that its cache holds the functions compiled then. */
async function warmUp(name: string, exports: unknown): Promise<void> {
  const example = join(ROOT, 'examples', 'session.jsonl');
  const io = { stdout: discard, stderr: discard };
  const ran: number[] = [];
  const jsonToo = async (run: (json: boolean) => Promise<number>): Promise<void> => {
    for (const json of [false, true]) ran.push(await run(json));
  };
  if (name === USAGE_BUNDLE) {
    const { runUsage } = exports as { runUsage: typeof RunUsage };
    await jsonToo((json) => runUsage([example], { json, index: false }, io));
    await onExampleFolder(example, async (home, index) => {
      ran.push(await index());
      await jsonToo((json) => runUsage([], { ...home, json }, io));
    });
  } else if (name === 'index-bundle') {
    const { runIndex, runSearch, runSql } = exports as typeof RunIndex;
    await onExampleFolder(example, async (home) => {
      ran.push(await runIndex({ ...home, progress: false }, io));
      await jsonToo((json) => runSearch(['session'], { ...home, json }, io));
      await jsonToo((json) => runSql('SELECT count(*) AS n FROM turns', { ...home, json }, io));
    });
  } else if (name === 'ls-bundle') {
    const { runLs } = exports as typeof RunLs;
    await onExampleFolder(example, async (home, index) => {
      await jsonToo((json) => runLs({ ...home, json }, io));
      ran.push(await index());
      await jsonToo((json) => runLs({ ...home, json }, io));
    });
  } else throw new Error(`bundle-cli: no warm-up for ${name}`);
  if (ran.some((code) => code !== 0)) throw new Error(`bundle-cli: the example failed in ${name}`);
}

/**
 * Runs `work` on a projects folder of the example in a temporary folder, deleted after: `home` names it and a romp home
 * beside it; `index()` builds that home's index with `dist/`'s `romp index`, and gives its exit code.
 */
async function onExampleFolder(
  example: string,
  work: (home: { projects: string; rompHome: string }, index: () => Promise<number>) => Promise<void>,
): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'romp-bundle-'));
  try {
    const projects = join(root, 'projects');
    mkdirSync(join(projects, '-example'), { recursive: true });
    copyFileSync(example, join(projects, '-example', basename(example)));
    const home = { projects, rompHome: join(root, 'home') };
    await work(home, async () => {
      const { runIndex } = (await import(pathToFileURL(join(CLI, 'run-index.js')).href)) as typeof RunIndex;
      return runIndex({ ...home, progress: false }, { stdout: discard, stderr: discard });
    });
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** Bundles `entry` (from `dist/`) into `outfile`, the modules `out` names left out, its `import()`s rewritten. */
async function bundleTo(
  entry: string,
  outfile: string,
  out: (path: string, dynamic: boolean) => boolean,
): Promise<void> {
  const [bundled] = (
    await build({
      ...common,
      entryPoints: [entry],
      outfile,
      plugins: [split(out)],
      define: { 'import.meta.url': '__rompUrl' },
      banner: { js: "const __rompUrl = require('node:url').pathToFileURL(__filename).href;" },
    })
  ).outputFiles;
  writeFileSync(outfile, withBundleImports(bundled?.text ?? ''));
}

/** The bundle with its every `import("…")` calling {@link BUNDLE_IMPORT} instead (src/cli/code-cache.ts). */
function withBundleImports(text: string): string {
  let out = text;
  for (const specifier of dynamicImports) {
    // (one the bundle does not use is not in it: tree-shaken)
    out = out.replaceAll(`import(${JSON.stringify(specifier)})`, `${BUNDLE_IMPORT}(${JSON.stringify(specifier)})`);
  }
  if (/\bimport\(/.test(out)) throw new Error('bundle-cli: an import() is left in the bundle');
  // a module left out and imported statically: `require()` of an ES module, which Node 20 refuses
  if (/\brequire\("\./.test(out)) throw new Error('bundle-cli: a module left out is imported statically');
  return out;
}
