#!/usr/bin/env node
/**
 * `romp` as package.json's `bin` runs it: `dist/src/cli/romp.cjs`, built from this file by
 * build/bundle-cli.ts. It runs the command line's bundle (`cli-bundle.cjs`: the common path, `romp show`,
 * in one CommonJS file) with V8's code cache written at build time (`cli-bundle.cache`), so that a
 * start-up neither compiles the bundle nor starts Node's ES module loader; the other commands' modules
 * load from `dist/` when they run. `dist/src/cli/bin.js` is the same program unbundled.
 */
import { join } from 'node:path';
import type { cli as Cli } from './cli.ts';
import { BUNDLE_FILE, CACHE_FILE, runBundle } from './code-cache.ts';
import { endOnClosedPipe } from './end-on-closed-pipe.ts';

const { cli } = runBundle(join(import.meta.dirname, BUNDLE_FILE), join(import.meta.dirname, CACHE_FILE)).exports as {
  cli: typeof Cli;
};
endOnClosedPipe();
void cli(process.argv.slice(2), process).then((code) => {
  process.exitCode = code;
});
