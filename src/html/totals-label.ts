import type { Session } from '../model/types.ts';
import { countAtomUsage } from '../usage/count-usage.ts';
import { tokens, usd } from './format-numbers.ts';
import type { UsageTotal } from './render-context.ts';

/**
 * The tokens and cost a page's or an export's title line says: the session's own turns (`countAtomUsage`:
 * each API response of its atoms once), `171.0k tokens · $0.1141`; when its files and its subagents' count to
 * more (`ctx.withSubagents`, as `romp usage session` counts them: subagent transcripts, 1.0.x inline
 * sidechains, rewound branches), both, each named: `171.0k tokens · $0.1141 in its own turns · 2.1M tokens
 * · $2.39 with subagents (as romp usage counts)`.
 * @param session the session
 * @param withSubagents the total with subagents, if read
 * @returns the text (plain: no markup)
 */
export function totalsLabel(session: Session, withSubagents: UsageTotal | undefined): string {
  const own = countAtomUsage(session.turns.flatMap((t) => t.atoms));
  const ownTokens =
    own.input_tokens + own.output_tokens + own.cache_creation_input_tokens + own.cache_read_input_tokens;
  const head = `${tokens(ownTokens)} tokens · ${usd(own.cost_usd)}`;
  if (withSubagents === undefined || usd(withSubagents.cost_usd) === usd(own.cost_usd)) return head;
  return `${head} in its own turns · ${tokens(withSubagents.tokens)} tokens · ${usd(withSubagents.cost_usd)} with subagents (as romp usage counts)`;
}
