import type { Session } from '../model/types.ts';
import type { RenderContext } from './render-context.ts';
import { renderTurn } from './render-turn.ts';
import { toolResults } from './tool-results.ts';

/**
 * The chat of a session: every turn (`renderTurn`), oldest first, each tool result shown with its call.
 * @param session the session (a subagent's too)
 * @param ctx patches, subagents, branches, context view
 * @returns the HTML
 */
export function renderChat(session: Session, ctx: RenderContext): string {
  const results = toolResults(session);
  return session.turns.map((turn, i) => renderTurn(turn, i + 1, results, ctx)).join('\n');
}
