import { test } from 'node:test';
import fc from 'fast-check';
import { corpusSamples, properties } from './helpers/properties.ts';

// a size that fits CI; `npm run fuzz -- --seconds N` runs the same properties for longer
const RUNS = Number(process.env['ROMP_PROPERTY_RUNS'] ?? 1000);

for (const { name, property, share } of properties(corpusSamples())) {
  test(name, async () => {
    await fc.assert(property, { numRuns: Math.ceil(RUNS * (share ?? 1)) });
  });
}
