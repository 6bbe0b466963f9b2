import type { Atom, Session, Turn } from '../model/types.ts';
import { addResponse, atomResponses, emptyTotals, responseKey, type Response } from '../usage/count-usage.ts';
import { PRICES, priceFor, type Price } from '../usage/prices.ts';
import type { UsageFactRow } from './row-types.ts';

/** Each finished turn's facts, as last made (a live session's finished turns are the same objects from one snapshot to
 * the next), with the session key and prices they were made with. */
const madeFor = new WeakMap<Turn, { sessionKey: string; prices: object; rows: UsageFactRow[] }>();

/**
 * The session's API responses, each once, as rows: its turns' atoms and its stream subagents' atoms
 * through `atomResponses` (countUsage's rules 1, 2, 4, 5, 6: `message.id` + `requestId`, else the id
 * within the session; the largest snapshot; 5 m / 1 h cache writes from the nested breakdown; subagent
 * usage kept; `<synthetic>` left out). Rule 3 (a sidechain copy of a main-chain response) and the
 * cross-file de-dup (a fork's copy in another session) are the reader's: rows of the same `key` are one
 * response. Rewound branches' responses are not in the Session, so not here.
 *
 * A session without stream subagents whose turns share no response and no atom has the rows of its turns one after
 * the other: each turn's are then made once and kept (per Turn object), so the live index's appends cost their turns'
 * responses, not the session's.
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
  return (
    factsByTurn(session, sessionKey, prices)?.flat() ??
    factRows(session.turns, session.subagents ?? {}, sessionKey, prices)
  );
}

/**
 * Each turn's usage facts (as `usageFactRows` makes them), when the session has no stream subagents and no two of its
 * turns share a response or an atom: the session's facts are then these, one turn's after the other (a tail of the
 * session read alone sums its turns after those before: `sessionTotals`). Each turn's are made once (per Turn object).
 * @param session the session
 * @param sessionKey its key
 * @param prices prices (default `PRICES`)
 * @returns the facts by turn, in turn order, or `undefined` when the session's facts are not made turn by turn
 */
export function factsByTurn(
  session: Session,
  sessionKey: string,
  prices: Readonly<Record<string, Price>> = PRICES,
): UsageFactRow[][] | undefined {
  if (Object.keys(session.subagents ?? {}).length !== 0) return undefined;
  const parts = session.turns.map((turn) => {
    const made = madeFor.get(turn);
    if (made !== undefined && made.sessionKey === sessionKey && made.prices === prices) return made.rows;
    const rows = factRows([turn], {}, sessionKey, prices);
    madeFor.set(turn, { sessionKey, prices, rows });
    return rows;
  });
  return disjoint(session.turns, parts) ? parts : undefined;
}

/** Response keys and atom uuids. */
interface Seen {
  keys: Set<string>;
  uuids: Set<string>;
}

/** The response keys and atom uuids of a session's leading turns (all but its last), as last checked, by its first
 * Turn object, with the parts' session key and prices; `disjoint`: no two of those turns share one. */
interface Checked extends Seen {
  turns: Turn[];
  parts: readonly unknown[];
  disjoint: boolean;
}
const checkedFrom = new WeakMap<Turn, Checked>();

/** Whether no two turns share a response (their facts' keys) or an atom. The turns before the last are checked once
 * (a live session's finished turns are the same objects from one snapshot to the next); the last, at every call. */
function disjoint(turns: readonly Turn[], parts: ReadonlyArray<readonly UsageFactRow[]>): boolean {
  const head = turns[0];
  if (head === undefined) return true;
  let c = checkedFrom.get(head);
  const same = (t: Turn, i: number): boolean => t === turns[i] && (c as Checked).parts[i] === parts[i];
  if (c === undefined || c.turns.length >= turns.length || !c.turns.every(same)) {
    c = { turns: [], parts, keys: new Set(), uuids: new Set(), disjoint: true };
    checkedFrom.set(head, c);
  }
  c.parts = parts;
  for (let i = c.turns.length; i < turns.length - 1 && c.disjoint; i++) {
    const turn = turns[i] as Turn;
    c.disjoint = added(turn, parts[i] as readonly UsageFactRow[], c, c);
    c.turns.push(turn);
  }
  const last = turns.length - 1;
  const own: Seen = { keys: new Set(), uuids: new Set() };
  return c.disjoint && added(turns[last] as Turn, parts[last] as readonly UsageFactRow[], c, own);
}

/** Adds a turn's fact keys and atom uuids to `into`; false when one is in `known` or `into` already. */
function added(turn: Turn, facts: readonly UsageFactRow[], known: Seen, into: Seen): boolean {
  for (const r of facts) {
    if (known.keys.has(r.key) || into.keys.has(r.key)) return false;
    into.keys.add(r.key);
  }
  for (const a of turn.atoms) {
    if (known.uuids.has(a.uuid) || into.uuids.has(a.uuid)) return false;
    into.uuids.add(a.uuid);
  }
  return true;
}

/** The facts of these turns' atoms and these stream subagents' (see `usageFactRows`). */
function factRows(
  turns: readonly Turn[],
  subagents: Readonly<Record<string, readonly Atom[]>>,
  sessionKey: string,
  prices: Readonly<Record<string, Price>>,
): UsageFactRow[] {
  const turnOf = new Map<string, string>();
  const atoms: Atom[] = [];
  const sidechain = new Set<string>();
  for (const turn of turns) {
    for (const atom of turn.atoms) {
      atoms.push(atom);
      turnOf.set(atom.uuid, turn.id);
    }
  }
  for (const list of Object.values(subagents)) {
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
      key: factKey(r.messageId, r.requestId, sessionKey),
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

/**
 * A usage fact's `key`: `JSON.stringify([message.id, requestId])`, or without a `requestId`,
 * `JSON.stringify([session, message.id])` (`'["msg_01…","req_01…"]'`). JSON text, so printable (a NUL in an id is
 * written `\u0000`), one string per pair of parts (no separator an id can hold), and SQL reads its parts with
 * `json_extract(key, '$[0]')`. countUsage's own de-dup key (`responseKey`) stays internal.
 * @param messageId the response's `message.id`
 * @param requestId its `requestId`, where written
 * @param session what the id is unique within when there is no `requestId` (a session key, a line's `sessionId`)
 * @returns the key
 */
export function factKey(messageId: string, requestId: string | undefined, session: string): string {
  return JSON.stringify(requestId !== undefined ? [messageId, requestId] : [session, messageId]);
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
