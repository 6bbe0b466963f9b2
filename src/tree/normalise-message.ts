import type { ApiMessage, ContentBlock } from '../model/types.ts';

/**
 * A user or assistant message with `content` as a block array: a string becomes one `text` block, a
 * missing content an empty array, and an entry that is not an object (`null`, a number) becomes an
 * `{type: "(invalid)", value}` block, so nothing is lost and no consumer meets a non-object block.
 * A message already in that shape is returned as is (not copied).
 *
 * @param role the role the line or frame says it has
 * @param raw the `message` field as read
 * @returns the message
 */
export function normaliseMessage(role: 'user' | 'assistant', raw: unknown): ApiMessage {
  const message = (typeof raw === 'object' && raw !== null ? raw : {}) as Partial<ApiMessage> & { content?: unknown };
  const content = message.content;
  const valid = Array.isArray(content) && content.every((b) => typeof b === 'object' && b !== null && !Array.isArray(b));
  if (valid && message.role === role) return message as ApiMessage;
  const blocks: ContentBlock[] = Array.isArray(content)
    ? content.map((b: unknown) => (typeof b === 'object' && b !== null && !Array.isArray(b) ? (b as ContentBlock) : { type: '(invalid)', value: b }))
    : typeof content === 'string'
      ? [{ type: 'text', text: content }]
      : [];
  return { ...message, role, content: blocks };
}
