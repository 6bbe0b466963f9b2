/**
 * The real transcripts of ../shared/corpus (read-only; nothing is copied into the project), for the
 * suites that run over them. Tests skip when the folder is not beside the checkout.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** `shared/corpus/transcripts` beside the checkout (this file is `dist/tests/helpers/corpus.js`). */
export const CORPUS_TRANSCRIPTS: string = resolve(
  fileURLToPath(import.meta.url),
  '../../../../../shared/corpus/transcripts',
);

/** Whether the corpus is there. */
export const corpusPresent: boolean = existsSync(CORPUS_TRANSCRIPTS);

/**
 * Every `*.jsonl` under the corpus's transcripts folder, sorted; none when it is absent.
 * @returns absolute paths
 */
export function corpusTranscripts(): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? walk(path) : name.endsWith('.jsonl') ? [path] : [];
    });
  return corpusPresent ? walk(CORPUS_TRANSCRIPTS).sort() : [];
}

/**
 * Hand-made or edited files (corpus README): not evidence of Claude Code behaviour.
 * @param file a path under the corpus, absolute or relative to its transcripts folder
 * @returns true for such a file
 */
export function isSynthetic(file: string): boolean {
  const rel = relative(CORPUS_TRANSCRIPTS, resolve(CORPUS_TRANSCRIPTS, file)).replace(/\\/g, '/');
  return (
    /^iansherr__claude-code-log\/[^/]+\.jsonl$/.test(rel) ||
    rel.includes('workflow_basic') ||
    rel.includes('jazzyalex__agent-sessions')
  );
}
