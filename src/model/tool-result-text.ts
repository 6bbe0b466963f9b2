/**
 * The text of content, the one helper for it: a `tool_result` block's `content`, or a message's
 * `content` as read from a line (Messages API: a string, or an array of blocks):
 * the string itself, or the `text` of each text block joined by a newline; an `image` block reads
 * `[image]`; anything else (missing, a number, other blocks) adds nothing.
 * @param content the `content`, typed (`ToolResultBlock['content']`) or as read from a line
 * @returns its text, `""` when it has none
 */
export function toolResultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const parts: string[] = [];
  for (const block of content) {
    if (typeof block !== 'object' || block === null) continue;
    if (block.type === 'text' && typeof block.text === 'string') parts.push(block.text);
    else if (block.type === 'image') parts.push('[image]');
  }
  return parts.join('\n');
}
