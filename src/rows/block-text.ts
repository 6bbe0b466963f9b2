import type { MessageBlock } from '../model/types.ts';
import { toolResultText } from '../model/tool-result-text.ts';

/** How many characters of a block's text a row keeps by default (4 KiB of ASCII). */
export const TEXT_CAP = 4096;

/** The same for tool input and output (`tool_use`, `tool_result` blocks), the bulk of a transcript. */
export const TOOL_TEXT_CAP = 2048;

/**
 * The searchable text of a content block: `text` of a text block, `thinking` of a thinking block, the
 * `input` of a `tool_use` as JSON, the text of a `tool_result`'s content (`toolResultText`); `""` for
 * anything else (images, redacted thinking, unknown blocks).
 * @param block a content block
 * @returns its text (full length)
 */
export function blockText(block: MessageBlock): string {
  const b = block as { type: string; text?: unknown; thinking?: unknown; input?: unknown; content?: unknown };
  if (b.type === 'text' && typeof b.text === 'string') return b.text;
  if (b.type === 'thinking' && typeof b.thinking === 'string') return b.thinking;
  if (b.type === 'tool_use') return JSON.stringify(b.input ?? null) ?? '';
  if (b.type === 'tool_result') return toolResultText(b.content);
  return '';
}

/**
 * Text cut to at most `cap` UTF-16 code units, never between the two halves of a surrogate pair (the
 * cut then keeps one unit less).
 * @param text the text
 * @param cap most code units kept
 * @returns the text, cut or whole
 */
export function capText(text: string, cap: number = TEXT_CAP): string {
  if (text.length <= cap) return text;
  const last = text.charCodeAt(cap - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? cap - 1 : cap);
}
