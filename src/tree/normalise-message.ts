import type { ApiMessage, ContentBlock } from '../model/types.ts';

/**
 * A user or assistant message with `content` as a block array: a string becomes one `text` block, a
 * missing content an empty array. A message already in that shape is returned as is (not copied).
 *
 * @param role the role the line or frame says it has
 * @param raw the `message` field as read
 * @returns the message
 */
export function normaliseMessage(role: 'user' | 'assistant', raw: unknown): ApiMessage {
  const message = (typeof raw === 'object' && raw !== null ? raw : {}) as Partial<ApiMessage> & { content?: unknown };
  const content = message.content;
  if (Array.isArray(content) && message.role === role) return message as ApiMessage;
  const blocks: ContentBlock[] = Array.isArray(content)
    ? (content as ContentBlock[])
    : typeof content === 'string'
      ? [{ type: 'text', text: content }]
      : [];
  return { ...message, role, content: blocks };
}
