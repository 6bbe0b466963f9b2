/**
 * `npm run fuzz -- --seconds N`: runs the property suites of tests/helpers/properties.ts and of
 * fuzz/projects-folder.ts for N seconds
 * in all (split evenly), and prints the cases run and the failures, with fast-check's counterexample.
 */
import { parseArgs } from 'node:util';
import fc from 'fast-check';
import { corpusSamples, properties } from '../tests/helpers/properties.ts';
import { projectsFolderProperties } from './projects-folder.ts';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '60' }, seed: { type: 'string' } } });
const seconds = Number(values.seconds);
const suites = [...properties(corpusSamples()), ...projectsFolderProperties()];
let failures = 0;
for (const { name, property } of suites) {
  let cases = 0;
  const counted = property.beforeEach(() => {
    cases++;
  });
  const details = await fc.check(counted, {
    numRuns: Number.MAX_SAFE_INTEGER,
    interruptAfterTimeLimit: (seconds * 1000) / suites.length,
    markInterruptAsFailure: false,
    ...(values.seed === undefined ? {} : { seed: Number(values.seed) }),
  });
  const failed = details.failed && !details.interrupted;
  if (failed) failures++;
  console.log(`${failed ? 'FAIL' : 'ok  '} ${name}: ${cases} cases (seed ${details.seed})`);
  if (failed) console.log(fc.defaultReportMessage(details));
}
console.log(failures === 0 ? 'no failures' : `${failures} failing properties`);
process.exitCode = failures === 0 ? 0 : 1;
