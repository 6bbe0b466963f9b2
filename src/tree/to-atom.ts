import type { Entry } from '../graph/entry.ts';
import { compactMetadata } from './compact-metadata.ts';
import type { ApiMessage, Atom, AtomFields, MessageAtom } from '../model/types.ts';
import type { RawRecord } from '../read/parse-line.ts';
import { deriveAuthor, type ResolvePeer } from './derive-author.ts';
import { normaliseMessage } from './normalise-message.ts';

/** What turning lines into atoms needs to know. */
export interface AtomContext {
  rompUuid: string;
  resolvePeer: ResolvePeer;
}

/**
 * Turns one active-path line into its atom, or `undefined` when the line is not a streaming message
 * (seed, "Atom"; issue #2, rule 7).
 *
 * - `user` → a user atom; string content becomes one `text` block; `author` from `deriveAuthor`.
 * - `assistant` → an assistant atom carrying the API message verbatim (one block per line), with
 *   `isApiErrorMessage` where Claude Code set it.
 * - `system` / `compact_boundary` → a `system:compact_boundary` atom with `compact_metadata`
 *   (`trigger`, `pre_tokens`, and `post_tokens`, `duration_ms`, `preserved_segment` where written).
 * - `attachment` / `queued_command` (a prompt absorbed mid-turn, 2.1.112+) → a user atom with the
 *   queued prompt; `author` system for a queued task notification, else as `deriveAuthor` says.
 * - `system` / `informational` with `level: "warning"` and an "Original prompt:" (a prompt a
 *   `UserPromptSubmit` hook blocked) → a human user atom, `subtype: "informational"`.
 * - Everything else (other system subtypes, other attachments) → `undefined`.
 *
 * `t` is the line's timestamp (epoch ms, `NaN` when missing: the ordering step fills it).
 *
 * @param entry the line
 * @param ctx the session's rompUuid and postal lookup
 * @returns the atom or `undefined`
 */
export function toAtom(entry: Entry, ctx: AtomContext): Atom | undefined {
  const record = entry.record;
  switch (entry.type) {
    case 'user':
    case 'assistant':
      return messageAtom(entry, record, normaliseMessage(entry.type, record['message']), ctx);
    case 'attachment':
      return queuedCommandAtom(entry, ctx);
    case 'system':
      if (entry.subtype === 'informational') return blockedPromptAtom(entry, ctx);
      if (entry.subtype !== 'compact_boundary') return undefined;
      return Object.assign(fields('system', entry, ctx), {
        subtype: 'compact_boundary',
        compact_metadata: compactMetadata(record['compactMetadata'], 'camel'),
      });
    default:
      return undefined;
  }
}

/**
 * An atom's first fields, `type` first, in the order every atom is written: built in place, not spread
 * from an object of its own (one object less per atom, and no copy of its fields).
 */
function fields<T extends Atom['type']>(type: T, entry: Entry, ctx: AtomContext): AtomFields & { type: T } {
  const atom: AtomFields & { type: T } = {
    type,
    uuid: entry.uuid,
    session_id: ctx.rompUuid,
    t: entry.t,
    fsid: entry.fsid,
  };
  const link = entry.record['parentUuid'] ?? entry.record['logicalParentUuid'];
  if (typeof link === 'string') atom.parentUuid = link;
  return atom;
}

function messageAtom(entry: Entry, record: RawRecord, message: ApiMessage, ctx: AtomContext): MessageAtom {
  const atom = fields(message.role, entry, ctx) as MessageAtom;
  atom.message = message;
  if (message.role === 'assistant' && typeof record['requestId'] === 'string') atom.request_id = record['requestId'];
  if (message.role === 'assistant' && record['isApiErrorMessage'] === true) atom.isApiErrorMessage = true;
  if (message.role === 'user') {
    const source = record['promptSource'];
    if (typeof source === 'string') atom.promptSource = source;
    const author = deriveAuthor(record, message.content, ctx.resolvePeer, 'human');
    if (author !== undefined) atom.author = author;
  }
  return atom;
}

function queuedCommandAtom(entry: Entry, ctx: AtomContext): Atom | undefined {
  const attachment = entry.record['attachment'] as RawRecord | undefined;
  if (attachment?.['type'] !== 'queued_command') return undefined;
  const message = normaliseMessage('user', { role: 'user', content: attachment['prompt'] });
  // envelope flags (entrypoint, isSidechain) count too: the attachment object has none of its own
  const flags = { entrypoint: entry.record['entrypoint'], isSidechain: entry.record['isSidechain'], ...attachment };
  const atom = messageAtom(entry, flags, message, ctx);
  if (attachment['commandMode'] === 'task-notification') atom.author = 'system';
  return atom;
}

/** What Claude Code writes after a blocked prompt's hook message: the prompt itself follows. */
export const ORIGINAL_PROMPT = '\n\nOriginal prompt: ';

/**
 * A prompt a `UserPromptSubmit` hook blocked: Claude Code writes no user line for it, only a
 * `system` / `informational` row, `level: "warning"`, content `<hook message>\n\nOriginal prompt: <prompt>`.
 * It is the human's prompt all the same: a user atom (author human, `subtype: "informational"`) whose
 * text is the row's content, so the prompt opens its own (blocked) turn. Other informational rows are
 * not atoms.
 */
function blockedPromptAtom(entry: Entry, ctx: AtomContext): Atom | undefined {
  const content = entry.record['content'];
  if (entry.record['level'] !== 'warning' || typeof content !== 'string' || !content.includes(ORIGINAL_PROMPT))
    return undefined;
  return Object.assign(fields('user', entry, ctx), {
    subtype: 'informational',
    message: { role: 'user' as const, content: [{ type: 'text' as const, text: content }] },
    author: 'human' as const,
  });
}
