/**
 * The text of a `tool_result` block's `content` (Messages API: a string, or an array of blocks):
 * the string itself, or the `text` of each text block joined by a newline; an `image` block reads
 * `[image]`; anything else (missing, a number, other blocks) adds nothing.
 * @param content the block's `content`
 * @returns its text, `""` when it has none
 */
export function toolResultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const parts: string[] = [];
  for (const block of content as unknown[]) {
    if (typeof block !== 'object' || block === null) continue;
    const { type, text } = block as { type?: unknown; text?: unknown };
    if (type === 'text' && typeof text === 'string') parts.push(text);
    else if (type === 'image') parts.push('[image]');
  }
  return parts.join('\n');
}
