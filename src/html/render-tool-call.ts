import { isKnownBlock } from '../model/is-known-block.ts';
import type { Atom, MessageBlock } from '../model/types.ts';
import { usd } from './format-numbers.ts';
import { toolLabel } from '../views/tool-label.ts';
import { capText } from './cap-text.ts';
import { escapeHtml } from './escape-html.ts';
import { renderChat } from './render-chat.ts';
import type { RenderContext } from './render-context.ts';
import { editHunks, renderDiff } from './render-diff.ts';
import { renderImage } from './render-image.ts';
import { highlightCode } from './render-markdown.ts';
import type { ToolResult } from './tool-results.ts';
import { plural } from '../text/format-count.ts';

/** A `tool_use` block's fields as the page reads them. */
export interface ToolUse {
  id?: unknown;
  name?: unknown;
  input?: unknown;
}

/**
 * One tool call as a chip that expands: `<details class="tool">` whose summary is `toolLabel`
 * (`Bash: npm test`) and the result's state (`error`, `no result`), and whose body is the input (a diff
 * for `Edit` / `MultiEdit` / `Write`: Claude Code's `structuredPatch` when written, else jsdiff over
 * the strings; a highlighted command for `Bash`; JSON for the rest), the result (text, capped; images),
 * and, under a `Task` / `Agent` call, the subagent's own turns with its model and cost. The result's
 * atom uuid anchors the result.
 * @param use the `tool_use` block
 * @param atom the assistant atom holding it
 * @param result its result, if one came
 * @param ctx patches, subagents, caps
 * @returns the HTML
 */
export function renderToolCall(use: ToolUse, atom: Atom, result: ToolResult | undefined, ctx: RenderContext): string {
  const name = typeof use.name === 'string' ? use.name : '';
  const id = typeof use.id === 'string' ? use.id : '';
  const isError = result?.block.is_error === true;
  const state =
    result === undefined
      ? '<span class="state pending">no result</span>'
      : isError
        ? '<span class="state error">error</span>'
        : '';
  const sub = ctx.subagents.get(id);
  const subHtml =
    sub === undefined
      ? ''
      : `<div class="subagent"><p class="sub-head">subagent · ${escapeHtml(sub.models.join(', ') || 'model unknown')} · ${plural(sub.session.turns.length, 'turn')} · ${usd(sub.cost_usd)}</p>${renderChat(sub.session, { ...ctx, subagents: new Map(), branchesFrom: new Map(), context: undefined })}</div>`;
  return (
    `<details class="tool${isError ? ' is-error' : ''}" data-tool="${escapeHtml(name)}"><summary><span class="chip">${escapeHtml(toolLabel(name, use.input))}</span>${state}${sub === undefined ? '' : '<span class="state">subagent</span>'}</summary>` +
    `<div class="tool-body"><div class="tool-input">${renderInput(name, id, use.input, atom, ctx)}</div>` +
    (result === undefined
      ? ''
      : `<div class="tool-result"${result.first ? ` id="${escapeHtml(result.atom.uuid)}"` : ''}>${renderResult(result, ctx)}</div>`) +
    `${subHtml}</div></details>`
  );
}

function renderInput(name: string, id: string, input: unknown, atom: Atom, ctx: RenderContext): string {
  const hunks = ctx.patches.get(id) ?? editHunks(name, input);
  if (hunks !== undefined && hunks.length > 0) return renderDiff(hunks, atom, ctx);
  const command = (input as { command?: unknown } | null)?.command;
  if (name === 'Bash' && typeof command === 'string') {
    const { html, note } = capText(command, atom, 'command', ctx);
    return `<pre class="code">${note === '' ? (highlightCode(command, 'bash') ?? html) : html}</pre>${note}`;
  }
  const { html, note } = capText(JSON.stringify(input, null, 2) ?? '', atom, 'tool input', ctx);
  return `<pre class="code">${html}</pre>${note}`;
}

function renderResult(result: ToolResult, ctx: RenderContext): string {
  const content = result.block.content;
  const blocks: MessageBlock[] = typeof content === 'string' ? [{ type: 'text', text: content }] : (content ?? []);
  return blocks
    .map((b) => {
      const block = isKnownBlock(b) ? b : undefined;
      if (block?.type === 'image') return renderImage(block, result.atom, ctx);
      const text = block?.type === 'text' ? block.text : JSON.stringify(b);
      const { html, note } = capText(text, result.atom, 'tool result', ctx);
      return `<pre class="out">${html}</pre>${note}`;
    })
    .join('');
}
