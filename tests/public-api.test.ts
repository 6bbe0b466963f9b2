import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as romp from '../src/index.ts';

test('the public API is exactly these functions and constants', () => {
  assert.deepEqual(Object.keys(romp).sort(), [
    'DEFAULT_MAX_LINE_BYTES',
    'LineDecoder',
    'SEVERITY',
    'SessionWatcher',
    'buildIndex',
    'buildSession',
    'buildTurns',
    'collectFiles',
    'createStreamState',
    'decodeStream',
    'deriveAuthor',
    'diagnostic',
    'examineFiles',
    'finishTurns',
    'formatDiagnostic',
    'fromStream',
    'initialTurns',
    'isOpenerAuthor',
    'listClaudeSessions',
    'listSessions',
    'normaliseMessage',
    'parseLine',
    'parseSession',
    'readTranscript',
    'readTranscriptLines',
    'recordResume',
    'reduceStream',
    'registerSession',
    'resolveActivePath',
    'resolveSession',
    'rompHome',
    'splitGlued',
    'stepTurns',
    'streamSession',
    'toAtom',
    'watchSession',
  ]);
});
