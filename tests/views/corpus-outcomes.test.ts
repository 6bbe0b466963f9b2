/**
 * Turn outcomes over the real transcripts in ../shared/corpus (read-only; nothing is copied here).
 * Skipped when the corpus is not beside the checkout.
 */
import assert from 'node:assert/strict';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { parseSession } from '../../src/session/parse-session.ts';
import { CORPUS_TRANSCRIPTS, corpusPresent, corpusTranscripts, isSynthetic } from '../helpers/corpus.ts';
import { promptText } from '../../src/views/prompt-text.ts';
import { turnOutcome, type TurnOutcome } from '../../src/views/turn-outcome.ts';

const ROOT = CORPUS_TRANSCRIPTS;
const present = corpusPresent;

test(
  'no turn followed by another is open; only a cut-off file ends open; openers are what was typed',
  { skip: !present },
  async (t) => {
    const files = corpusTranscripts()
      .filter((f) => !isSynthetic(f))
      .map((f) => relative(ROOT, f).replace(/\\/g, '/'))
      .sort();
    assert.ok(files.length >= 100, `corpus has ${files.length} files`);
    const counts = new Map<TurnOutcome, number>();
    for (const file of files) {
      const { session } = await parseSession([join(ROOT, file)]);
      session.turns.forEach((turn, i) => {
        const outcome = turnOutcome(turn);
        counts.set(outcome, (counts.get(outcome) ?? 0) + 1);
        if (i < session.turns.length - 1)
          assert.notEqual(outcome, 'open', `${file}: turn ${i + 1} is followed by another`);
        // Claude Code's own lines never reach the prompt
        const prompt = promptText(turn);
        for (const added of [
          '<ide_opened_file>',
          '<ide_selection>',
          '<system-reminder>',
          '<command-name>',
          '<local-command-caveat>',
          'romp-msg-id',
        ]) {
          assert.ok(!prompt.includes(added), `${file}: turn ${i + 1} prompt holds ${added}`);
        }
      });
    }
    t.diagnostic(`outcomes: ${JSON.stringify(Object.fromEntries([...counts].sort()))}`);
    // every ending the corpus holds is told apart (it has no blocked prompt and no max_tokens stop)
    for (const outcome of ['completed', 'interrupted', 'rejected', 'api_error', 'local', 'open'] as const)
      assert.ok((counts.get(outcome) ?? 0) > 0, `no ${outcome} turn`);
  },
);
