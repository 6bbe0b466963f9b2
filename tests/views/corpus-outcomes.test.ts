/**
 * Turn outcomes over the real transcripts in ../shared/corpus (read-only; nothing is copied here).
 * Skipped when the corpus is not beside the checkout.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { parseSession } from '../../src/session/parse-session.ts';
import { promptText } from '../../src/views/prompt-text.ts';
import { turnOutcome, type TurnOutcome } from '../../src/views/turn-outcome.ts';

const ROOT = resolve(fileURLToPath(import.meta.url), '../../../../../shared/corpus/transcripts');
const present = existsSync(ROOT);

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : name.endsWith('.jsonl') ? [path] : [];
  });
}
/** Hand-made or edited files (corpus README): not evidence of Claude Code behaviour. */
const synthetic = (f: string): boolean => /iansherr__claude-code-log\/[^/]+\.jsonl$/.test(f) || f.includes('workflow_basic') || f.includes('jazzyalex__agent-sessions');

test('no turn followed by another is open; only a cut-off file ends open; openers are what was typed', { skip: !present }, async (t) => {
  const files = walk(ROOT).map((f) => relative(ROOT, f).replace(/\\/g, '/')).filter((f) => !synthetic(f)).sort();
  assert.ok(files.length >= 100, `corpus has ${files.length} files`);
  const counts = new Map<TurnOutcome, number>();
  for (const file of files) {
    const { session } = await parseSession([join(ROOT, file)]);
    session.turns.forEach((turn, i) => {
      const outcome = turnOutcome(turn);
      counts.set(outcome, (counts.get(outcome) ?? 0) + 1);
      if (i < session.turns.length - 1) assert.notEqual(outcome, 'open', `${file}: turn ${i + 1} is followed by another`);
      // Claude Code's own lines never reach the prompt
      const prompt = promptText(turn);
      for (const added of ['<ide_opened_file>', '<ide_selection>', '<system-reminder>', '<command-name>', '<local-command-caveat>', 'romp-msg-id']) {
        assert.ok(!prompt.includes(added), `${file}: turn ${i + 1} prompt holds ${added}`);
      }
    });
  }
  t.diagnostic(`outcomes: ${JSON.stringify(Object.fromEntries([...counts].sort()))}`);
  // every ending the corpus holds is told apart (it has no blocked prompt and no max_tokens stop)
  for (const outcome of ['completed', 'interrupted', 'rejected', 'api_error', 'local', 'open'] as const) assert.ok((counts.get(outcome) ?? 0) > 0, `no ${outcome} turn`);
});
