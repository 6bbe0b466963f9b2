import { isKnownBlock } from '../model/is-known-block.ts';
import type { Author, MessageBlock } from '../model/types.ts';
import type { RawRecord } from '../read/parse-line.ts';
import { findPostalId } from './find-postal-id.ts';
import { HARNESS_TEXT } from './harness-text.ts';

/**
 * Looks up the sender of a romp postal message: its id → the sender's rompUuid, or `null` when the
 * id is not in romp's postal log. The default knows no log and answers `null`.
 */
export type ResolvePeer = (postalId: string) => string | null;

/** Texts Claude Code writes as user lines on its own (transcript-format §14): harness output, never a prompt. */
const HARNESS_PREFIXES = [
  HARNESS_TEXT.taskNotification,
  ...HARNESS_TEXT.localOutput,
  ...HARNESS_TEXT.caveat,
  HARNESS_TEXT.interrupt,
  HARNESS_TEXT.hookStopped,
  'Stop hook feedback:',
];

/** Flags Claude Code sets on user lines it writes itself (transcripts) or synthesises (streams). */
const FLAGS = ['isCompactSummary', 'isVisibleInTranscriptOnly', 'isMeta', 'isSynthetic'];

const PROMPT_SOURCE_AUTHORS: ReadonlyMap<string, Author> = new Map([
  ['typed', 'human'],
  ['queued', 'human'],
  ['suggestion_accepted', 'human'],
  ['sdk', 'sdk'],
  ['system', 'system'],
]);

/**
 * Who wrote a user line (seed, "Authorship"); `undefined` for a tool_result-only line (harness output).
 *
 * In order, the first rule that applies:
 * 1. content of tool_result blocks only → no author;
 * 2. `promptSource` (2.1.200+): `typed`/`queued`/`suggestion_accepted` → human, `sdk` → sdk,
 *    `system` → system;
 * 3. the romp postal marker `<!-- romp-msg-id: ID -->` in a text block → `{peer}` (hook-injected lines
 *    carry no `promptSource`, and Stop-hook lines are `isMeta`, so this comes before rule 4);
 * 4. `isCompactSummary`, `isVisibleInTranscriptOnly`, `isMeta`, and on streams `isSynthetic` → system;
 * 5. `origin.kind` (2.1.x): `human`/`channel` → human, any other kind → system;
 * 6. text Claude Code writes itself (task notifications, local-command output and caveats, `!` shell
 *    output, interrupt markers, a `UserPromptSubmit` hook's "Operation stopped by hook", 1.0.x stop-hook
 *    feedback) → system;
 * 7. a sidechain line (a subagent's prompt, written by the parent agent) → system;
 * 8. `entrypoint` `sdk-*` (2.1.80+) → sdk;
 * 9. anything else → `fallback`: human on the file substrate (typed prompts and slash commands of every
 *    version), sdk on the stream substrate (what the host sent).
 *
 * @param record the transcript line (a `user` line)
 * @param content its content blocks, normalised
 * @param resolvePeer looks up a postal sender
 * @param fallback the author when no rule applies
 * @returns the author, or `undefined`
 */
export function deriveAuthor(
  record: RawRecord,
  content: MessageBlock[],
  resolvePeer: ResolvePeer,
  fallback: 'human' | 'sdk',
): Author | undefined {
  if (content.length > 0 && content.every((b) => b.type === 'tool_result')) return undefined;
  const source = record['promptSource'];
  if (typeof source === 'string') {
    const author = PROMPT_SOURCE_AUTHORS.get(source);
    if (author !== undefined) return author;
  }
  const texts = textsOf(content);
  for (const text of texts) {
    const postalId = findPostalId(text);
    if (postalId !== undefined) return { peer: resolvePeer(postalId) };
  }
  if (FLAGS.some((flag) => record[flag] === true)) return 'system';
  const kind = (record['origin'] as { kind?: unknown } | undefined)?.kind;
  if (typeof kind === 'string') return kind === 'human' || kind === 'channel' ? 'human' : 'system';
  const trimmed = texts[0]?.trimStart() ?? '';
  if (HARNESS_PREFIXES.some((p) => trimmed.startsWith(p))) return 'system';
  if (record['isSidechain'] === true) return 'system';
  const entrypoint = record['entrypoint'];
  if (typeof entrypoint === 'string' && entrypoint.startsWith('sdk')) return 'sdk';
  return fallback;
}

function textsOf(content: MessageBlock[]): string[] {
  const texts: string[] = [];
  for (const block of content) if (isKnownBlock(block) && block.type === 'text') texts.push(block.text);
  return texts;
}
