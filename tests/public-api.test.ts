import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as romp from '../src/index.ts';

test('the public API is exactly these functions and constants', () => {
  assert.deepEqual(Object.keys(romp).sort(), [
    'DEFAULT_MAX_LINE_BYTES',
    'LineDecoder',
    'SEVERITY',
    'buildIndex',
    'buildSession',
    'buildTurns',
    'collectFiles',
    'createStreamState',
    'decodeStream',
    'deriveAuthor',
    'diagnostic',
    'finishTurns',
    'formatDiagnostic',
    'fromStream',
    'initialTurns',
    'isOpenerAuthor',
    'normaliseMessage',
    'parseLine',
    'parseSession',
    'readTranscript',
    'readTranscriptLines',
    'reduceStream',
    'resolveActivePath',
    'splitGlued',
    'stepTurns',
    'streamSession',
    'toAtom',
  ]);
});
