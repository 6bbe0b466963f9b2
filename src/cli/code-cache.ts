import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Script } from 'node:vm';

/** `romp usage`'s bundle of its own ({@link OWN_BUNDLES}), the one run under {@link USAGE_V8_FLAGS}. */
export const USAGE_BUNDLE = 'usage-bundle';

/** The command line's CommonJS bundle (build/bundle-cli.ts), beside the `romp` bin in `dist/src/cli/`. */
export const BUNDLE_FILE = 'cli-bundle.cjs';
/** V8's code cache of {@link BUNDLE_FILE}, written at build time beside it. */
export const CACHE_FILE = 'cli-bundle.cache';
/**
 * What the bundle calls for `import()`: build/bundle-cli.ts rewrites its every `import("./run-….js")`
 * (and `import("node:…")`) to `__rompImport("./run-….js")`, since a `vm.Script` cannot `import()` without
 * an experimental loader option (Node 20), and not at all once given cached data.
 */
export const BUNDLE_IMPORT = '__rompImport';
/**
 * Command modules that run from a bundle of their own, beside the bin, with its own code cache
 * (`<name>.cjs`, `<name>.cache`; build/bundle-cli.ts), not from `dist/` through Node's ES module loader:
 * a bundle's `import("./run-usage.js")` runs `usage-bundle.cjs` (issue 16: `romp usage` loaded 62
 * modules at start-up), and `import("./run-index.js")` (`romp index`, `search`, `sql`) `index-bundle.cjs` (issue 17:
 * its modules through the ES module loader were 46 ms of a refresh's 310), and `import("./run-ls.js")` `ls-bundle.cjs`
 * (the listing, and the index it reads listings from when there is one).
 */
export const OWN_BUNDLES: ReadonlyMap<string, string> = new Map([
  ['./run-usage.js', USAGE_BUNDLE],
  ['./run-index.js', 'index-bundle'],
  ['./run-ls.js', 'ls-bundle'],
]);

/**
 * V8 flags `romp usage` runs with, set (`v8.setFlagsFromString`, process-wide, its worker thread's isolate too) before
 * its bundle compiles, and by build/bundle-cli.ts before it makes the usage bundles' caches: V8 takes a code cache
 * only under the flags it was made with. A smaller inlining budget (920 bytes of bytecode by default) makes each
 * of the usage walk's optimized compiles, a dozen large functions per thread, cheaper for no slower code (issue 16:
 * V8's background threads 750 -> 500 ms CPU in two threads over the bench's folder, 380 -> 240 ms in one).
 */
export const USAGE_V8_FLAGS = '--max-inlined-bytecode-size-cumulative=300';

let usageFlagsSet = false;
/** Sets {@link USAGE_V8_FLAGS}, once per process. */
export function useUsageFlags(): void {
  if (usageFlagsSet) return;
  usageFlagsSet = true;
  // `node:v8` loaded here, not at start-up: it brings four more of Node's modules to every command
  process.getBuiltinModule('node:v8').setFlagsFromString(USAGE_V8_FLAGS);
}

/**
 * `countUsage`'s worker thread as a bundle of its own beside the bin (`<name>.cjs`, `<name>.cache`;
 * build/bundle-cli.ts), and the script a worker starts with (`usage-worker.cjs`, src/usage/usage-worker-start.ts),
 * which runs it: through Node's ES module loader the worker's modules cost 50 ms of its start (issue 16).
 */
export const USAGE_WORKER_BUNDLE = 'usage-worker-bundle';
export const USAGE_WORKER_START = 'usage-worker.cjs';

/** A bundle run by {@link runBundle}. */
export interface RunBundle {
  /** What the bundle's `module.exports` holds. */
  exports: unknown;
  script: Script;
  /** The bundle's bytes, as read. */
  source: Buffer;
  /** Whether V8 took the code cache (false: none, another bundle's, or rejected for another V8 or flags). */
  cached: boolean;
}

/**
 * Runs a CommonJS bundle as Node's loader would (`exports`, `require`, `module`, `__filename`,
 * `__dirname`), compiled with V8's code cache from `cachePath` when that cache was made from these very
 * bytes: V8 itself checks only the source's length, its own version and its flags, so the cache file
 * carries the bundle it was made from ({@link codeCacheFile}). A missing, stale or rejected cache costs
 * only the compile it would have saved. The bundle's `import("./x.js")` (as {@link BUNDLE_IMPORT}) is
 * resolved against the bundle's own path, a package's (`import("cli-progress")`) as Node resolves it from
 * here; a module of {@link OWN_BUNDLES} is its bundle beside this one, run once per process.
 *
 * @param path the bundle, absolute
 * @param cachePath its cache file, absolute; undefined to compile without one
 * @returns what the bundle exported, and its script (for {@link codeCacheFile})
 */
export function runBundle(path: string, cachePath: string | undefined): RunBundle {
  const source = readFileSync(path);
  const cachedData = cachePath === undefined ? undefined : cachedDataOf(cachePath, source);
  const wrapped = `(function (exports, require, module, __filename, __dirname, ${BUNDLE_IMPORT}) {${source.toString()}\n})`;
  const script = new Script(wrapped, cachedData === undefined ? { filename: path } : { filename: path, cachedData });
  const module = { exports: {} };
  const url = pathToFileURL(path);
  const require = createRequire(path);
  const load = (specifier: string): Promise<unknown> => {
    const own = OWN_BUNDLES.get(specifier);
    if (own !== undefined) return Promise.resolve(ownBundle(join(dirname(path), own)));
    if (specifier.startsWith('.')) return import(new URL(specifier, url).href);
    // one `require` refuses is imported from where `require` found it: from the bundle, not from this module
    return Promise.resolve().then(
      () => requiredAsImported(require, specifier) ?? import(pathToFileURL(require.resolve(specifier)).href),
    );
  };
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  run.call(module.exports, module.exports, require, module, path, dirname(path), load);
  return { exports: module.exports, script, source, cached: cachedData !== undefined && !script.cachedDataRejected };
}

/**
 * A package or a Node module as `import()` would give it, loaded by `require`: `import()` goes through Node's ES
 * module loader, 8–10 ms more CPU than `require` for `romp index`'s `proper-lockfile` and `node:worker_threads`. A
 * CommonJS module gives its exports, and `default`: the whole, as `import()` does; an ES module its namespace (Node
 * 20.19 and later `require` one); `undefined` for one `require` refuses (`ERR_REQUIRE_ESM` before 20.19, or
 * `ERR_REQUIRE_ASYNC_MODULE`: top-level `await`), which is `import()`ed.
 */
function requiredAsImported(require: NodeJS.Require, specifier: string): object | undefined {
  let exported: unknown;
  try {
    exported = require(specifier);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ERR_REQUIRE_ESM' || code === 'ERR_REQUIRE_ASYNC_MODULE') return undefined;
    throw error;
  }
  if (Object.prototype.toString.call(exported) === '[object Module]') return exported as object;
  return typeof exported === 'object' || typeof exported === 'function'
    ? { ...exported, default: exported }
    : { default: exported };
}

/** What the bundles of {@link OWN_BUNDLES} exported, by path (without `.cjs`): each runs once. */
const ownBundles = new Map<string, unknown>();
function ownBundle(base: string): unknown {
  if (!ownBundles.has(base)) {
    if (basename(base) === USAGE_BUNDLE) useUsageFlags();
    ownBundles.set(base, runBundle(`${base}.cjs`, `${base}.cache`).exports);
  }
  return ownBundles.get(base);
}

/**
 * The cache file for a bundle that has run (V8's cache then holds the functions it compiled, not only
 * the top level): the bundle's length (4 bytes, little-endian), its bytes, then V8's data.
 * @param bundle what {@link runBundle} returned
 * @returns the file's bytes
 */
export function codeCacheFile(bundle: RunBundle): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32LE(bundle.source.length);
  return Buffer.concat([length, bundle.source, bundle.script.createCachedData()]);
}

/** V8's data from a cache file made from `source`; undefined when there is none or it was made from other bytes. */
function cachedDataOf(cachePath: string, source: Buffer): Buffer | undefined {
  let file: Buffer;
  try {
    file = readFileSync(cachePath);
  } catch {
    return undefined;
  }
  const end = 4 + source.length;
  if (file.length <= end || file.readUInt32LE(0) !== source.length || !file.subarray(4, end).equals(source)) {
    return undefined;
  }
  return file.subarray(end);
}
