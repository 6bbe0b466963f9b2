/**
 * The script a `countUsage` worker thread starts (`dist/src/cli/usage-worker.cjs`, built from this file by
 * build/bundle-cli.ts): it runs the worker's bundle (`usage-worker-bundle.cjs`) with its V8 code cache, so
 * that the thread neither starts Node's ES module loader nor compiles what it runs (issue 16).
 */
import { join } from 'node:path';
import { runBundle, USAGE_WORKER_BUNDLE } from '../cli/code-cache.ts';

runBundle(
  join(import.meta.dirname, `${USAGE_WORKER_BUNDLE}.cjs`),
  join(import.meta.dirname, `${USAGE_WORKER_BUNDLE}.cache`),
);
