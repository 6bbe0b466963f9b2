import { isKnownBlock } from '../model/is-known-block.ts';
import type { Atom, MessageBlock } from '../model/types.ts';
import { capText } from './cap-text.ts';
import { escapeHtml } from './escape-html.ts';
import type { RenderContext } from './render-context.ts';
import { renderImage } from './render-image.ts';
import { renderMarkdown } from './render-markdown.ts';
import { renderToolCall } from './render-tool-call.ts';
import type { ToolResult } from './tool-results.ts';

/**
 * One content block of an atom as HTML: an assistant's `text` as Markdown, a user's as plain text;
 * `thinking` collapsed (`<details class="thinking">`; a block with only a `signature` is labelled so),
 * `redacted_thinking` labelled; `image` (raster `data:` only); `tool_use` as a chip with its result;
 * a `tool_result` (shown with its call, so only an orphan reaches here) as plain text; any other block
 * as its JSON, collapsed.
 * @param block the block
 * @param atom its atom
 * @param results the session's tool results by id
 * @param ctx patches, subagents, caps
 * @returns the HTML
 */
export function renderBlock(
  block: MessageBlock,
  atom: Atom,
  results: ReadonlyMap<string, ToolResult>,
  ctx: RenderContext,
): string {
  const b = isKnownBlock(block) ? block : undefined;
  switch (b?.type) {
    case 'text':
      return atom.type === 'assistant'
        ? `<div class="md">${renderMarkdown(b.text)}</div>`
        : `<div class="plain">${escapeHtml(b.text)}</div>`;
    case 'thinking': {
      const text = b.thinking;
      if (text === '')
        return `<p class="thinking-empty">thinking: signature only (the text is not in the transcript)</p>`;
      return `<details class="thinking"><summary>thinking · ${text.length.toLocaleString('en')} characters</summary><div class="md">${renderMarkdown(text)}</div></details>`;
    }
    case 'redacted_thinking':
      return '<p class="thinking-empty">thinking: redacted</p>';
    case 'image':
      return renderImage(b, atom, ctx);
    case 'tool_use':
      return renderToolCall(b, atom, results.get(b.id), ctx);
    case 'tool_result': {
      const { html, note } = capText(
        typeof b.content === 'string' ? b.content : JSON.stringify(b.content ?? null),
        atom,
        'tool result',
        ctx,
      );
      return `<div class="orphan-result"><p class="label">tool result without its call</p><pre class="out">${html}</pre>${note}</div>`;
    }
  }
  return `<details class="unknown"><summary>${escapeHtml(block.type)} block</summary><pre class="code">${escapeHtml(JSON.stringify(block, null, 2))}</pre></details>`;
}
