import { test } from 'node:test';
import fc from 'fast-check';
import { projectsFolderProperties } from '../../fuzz/projects-folder.ts';

// each case builds a folder with FIFOs and links and runs ls and usage (with its worker threads) on it,
// about 0.35 s: a few here, as many as fit in `npm run fuzz`
const RUNS = 8;

for (const { name, property } of projectsFolderProperties()) {
  test(name, async () => {
    await fc.assert(property, { numRuns: RUNS });
  });
}
