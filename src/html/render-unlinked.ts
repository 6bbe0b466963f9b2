import type { Session } from '../model/types.ts';
import { plural } from '../text/format-count.ts';
import { subagentSession } from '../views/subagent-session.ts';
import { escapeHtml } from './escape-html.ts';
import type { RenderContext } from './render-context.ts';
import { renderChat } from './render-chat.ts';

/**
 * The inline sidechains no `Task` / `Agent` call was found for (`Session.sidechains` with no `tool_use_id`), after
 * the chat: a `<section id="unlinked-sidechains">` saying so, each sidechain's turns as a subagent's are shown under
 * its call.
 * @param session the session
 * @param ctx patches, caps
 * @returns the HTML (`""` without any)
 */
export function renderUnlinked(session: Session, ctx: RenderContext): string {
  const chains = (session.sidechains ?? []).flatMap((s) => (s.tool_use_id === null ? [s.atoms] : []));
  if (chains.length === 0) return '';
  const inner = { ...ctx, subagents: new Map(), branchesFrom: new Map(), context: undefined };
  const parts = chains.map((atoms) => {
    const sub = subagentSession(session, atoms);
    return `<div class="subagent"><p class="sub-head">inline sidechain · ${plural(sub.turns.length, 'turn')} · ${plural(atoms.length, 'atom')} · from line uuid ${escapeHtml(atoms[0]?.uuid ?? '')}</p>${renderChat(sub, inner)}</div>`;
  });
  return `<section id="unlinked-sidechains"><h2>Inline sidechains not tied to a Task call</h2>${parts.join('')}</section>`;
}
