import type { Atom, Session } from '../model/types.ts';
import { addResponse, atomResponses, emptyTotals, responseKey, type Response } from '../usage/count-usage.ts';
import { PRICES, priceFor, type Price } from '../usage/prices.ts';
import type { UsageFactRow } from './row-types.ts';

/**
 * The session's API responses, each once, as rows: its turns' atoms and its stream subagents' atoms
 * through `atomResponses` (countUsage's rules 1, 2, 4, 5, 6: `message.id` + `requestId`, else the id
 * within the session; the largest snapshot; 5 m / 1 h cache writes from the nested breakdown; subagent
 * usage kept; `<synthetic>` left out). Rule 3 (a sidechain copy of a main-chain response) and the
 * cross-file de-dup (a fork's copy in another session) are the reader's: rows of the same `key` are one
 * response. Rewound branches' responses are not in the Session, so not here.
 * @param session the session
 * @param sessionKey its key
 * @param prices prices (default `PRICES`)
 * @returns the rows, in the order the responses began
 */
export function usageFactRows(
  session: Session,
  sessionKey: string,
  prices: Readonly<Record<string, Price>> = PRICES,
): UsageFactRow[] {
  const turnOf = new Map<string, string>();
  const atoms: Atom[] = [];
  const sidechain = new Set<string>();
  for (const turn of session.turns) {
    for (const atom of turn.atoms) {
      atoms.push(atom);
      turnOf.set(atom.uuid, turn.id);
    }
  }
  for (const list of Object.values(session.subagents ?? {})) {
    for (const atom of list) {
      atoms.push(atom);
      sidechain.add(atom.uuid);
    }
  }
  const firstAtom = new Map<string, Atom>();
  for (const atom of atoms) {
    const id = atom.message?.id;
    if (atom.type !== 'assistant' || id === undefined) continue;
    const k = responseKey(id, atom.request_id, atom.session_id);
    if (!firstAtom.has(k)) firstAtom.set(k, atom);
  }
  return atomResponses(atoms).map((r) => {
    const atom = firstAtom.get(responseKey(r.messageId, r.requestId, r.sessionId)) as Atom;
    return {
      key:
        r.requestId !== undefined
          ? responseKey(r.messageId, r.requestId, '')
          : responseKey(r.messageId, undefined, sessionKey),
      session_key: sessionKey,
      message_id: r.messageId,
      request_id: r.requestId ?? null,
      atom_key: atom.uuid,
      turn_key: turnOf.get(atom.uuid) ?? null,
      model: r.model,
      t: r.t,
      is_sidechain: sidechain.has(atom.uuid),
      lower_bound: r.lowerBound,
      ...usageCells(r, prices),
    };
  });
}

/** The token and cost columns of a usage fact. */
export type UsageCells = Pick<
  UsageFactRow,
  | 'input_tokens'
  | 'output_tokens'
  | 'cache_creation_input_tokens'
  | 'ephemeral_5m_input_tokens'
  | 'ephemeral_1h_input_tokens'
  | 'cache_read_input_tokens'
  | 'cost_usd'
>;

/**
 * One response's token columns (tokens, named as the Messages API's usage fields; cache writes from the
 * nested 5 m / 1 h breakdown, else all 5 m) and its cost (USD; null for a model with no price), summed
 * by `countUsage`'s own `addResponse`, so a row adds up as `romp usage` does.
 * @param r the response
 * @param prices prices (default `PRICES`)
 * @returns the columns
 */
export function usageCells(r: Response, prices: Readonly<Record<string, Price>> = PRICES): UsageCells {
  const price = priceFor(r.model, prices);
  const totals = emptyTotals();
  addResponse(totals, r, price);
  return {
    input_tokens: totals.input_tokens,
    output_tokens: totals.output_tokens,
    cache_creation_input_tokens: totals.cache_creation_input_tokens,
    ephemeral_5m_input_tokens: totals.cache_creation_5m,
    ephemeral_1h_input_tokens: totals.cache_creation_1h,
    cache_read_input_tokens: totals.cache_read_input_tokens,
    cost_usd: price === undefined ? null : totals.cost_usd,
  };
}
