import { knownBlocks } from '../model/known-blocks.ts';
import { escapeHtml } from './escape-html.ts';
import type { Branch } from './read-branches.ts';
import { renderMarkdown } from './render-markdown.ts';
import { toolLabel } from '../views/tool-label.ts';
import { typedText } from '../views/prompt-text.ts';
import { plural } from '../text/format-count.ts';

/**
 * The rewound branches of a session, each a `<section class="branch">` anchored by its first line's
 * uuid (the "branch" links in the chat point here), with a link back to the line it forks from; what
 * was typed as plain text (a line of tool results as their count), assistant text as Markdown, tool calls as their
 * label.
 * @param branches the branches (`readBranches`)
 * @param omitted dead lines not read (past the cap)
 * @returns the HTML (`""` without branches)
 */
export function renderBranches(branches: readonly Branch[], omitted: number): string {
  if (branches.length === 0) return '';
  const sections = branches.map((branch) => {
    const lines = branch.lines.map((line) => {
      if (line.type === 'user') {
        const typed = typedText(line);
        const results = knownBlocks(line.message.content).filter((b) => b.type === 'tool_result').length;
        return `<div class="atom a-user" id="${escapeHtml(line.uuid)}">${typed === '' ? `<p class="chip">${results} tool result${results === 1 ? '' : 's'}</p>` : `<div class="plain">${escapeHtml(typed)}</div>`}</div>`;
      }
      const blocks = knownBlocks(line.message.content).map((block) => {
        if (block.type === 'text') return `<div class="md">${renderMarkdown(block.text)}</div>`;
        if (block.type === 'tool_use') return `<p class="chip">${escapeHtml(toolLabel(block.name, block.input))}</p>`;
        return '';
      });
      return `<div class="atom a-assistant" id="${escapeHtml(line.uuid)}">${blocks.join('')}</div>`;
    });
    const back = branch.from === null ? '' : ` · forks from <a href="#${escapeHtml(branch.from)}">this line</a>`;
    return `<section class="branch" id="${escapeHtml(branch.uuid)}"><h3>rewound branch · ${plural(branch.lines.length, 'line')}${back}</h3>${lines.join('')}</section>`;
  });
  const note = omitted > 0 ? `<p class="cut">truncated: ${omitted} more dead lines not shown</p>` : '';
  return `<section id="branches"><h2>Rewound branches</h2>${sections.join('')}${note}</section>`;
}
