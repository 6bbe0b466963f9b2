import type { Atom, Session, Turn } from '../model/types.ts';
import type { AtomRow, UsageFactRow } from './row-types.ts';
import { factKey, usageCells } from './usage-fact-rows.ts';
import type { Response } from '../usage/count-usage.ts';
import { PRICES, type Price } from '../usage/prices.ts';

/** Where a response's first line sits: its atom and turn, when it is on a session's path. */
export interface ResponsePlace {
  atom_key: string;
  turn_key: string | null;
}

/**
 * Where each response begins among atom rows: its first atom on a path, by `message.id` NUL `requestId`.
 * @param atoms a session's atom rows (with its subagents')
 * @returns the places
 */
export function responsePlaces(atoms: readonly AtomRow[]): Map<string, ResponsePlace> {
  const places = new Map<string, ResponsePlace>();
  for (const atom of atoms) {
    if (atom.message_id === null || !atom.on_path) continue;
    const k = `${atom.message_id}\u0000${atom.request_id ?? ''}`;
    if (!places.has(k)) places.set(k, { atom_key: atom.key, turn_key: atom.turn_key });
  }
  return places;
}

/** Each turn's places (the first atom of each response in it), as last found: a live session's finished turns are the
 * same objects from one snapshot to the next, so an append walks its own turns' atoms only. */
const turnPlaces = new WeakMap<Turn, ReadonlyArray<[string, ResponsePlace]>>();

/**
 * The same places as `responsePlaces` over all of a session's atom rows, read from the Session itself
 * (its turns' atoms, then its stream subagents'), without making the rows: for rewriting only the turns an
 * append changed, where the other turns' responses must keep their places. Each turn's are found once per Turn
 * object (a Turn is never changed once made).
 * @param session a parsed session
 * @returns the places
 */
export function sessionPlaces(session: Session): Map<string, ResponsePlace> {
  const places = new Map<string, ResponsePlace>();
  const take = (atom: Atom, turnKey: string | null, into: (k: string, place: ResponsePlace) => void): void => {
    const id = atom.message?.id;
    if (id === undefined) return;
    into(`${id}\u0000${atom.request_id ?? ''}`, { atom_key: atom.uuid, turn_key: turnKey });
  };
  const first = (k: string, place: ResponsePlace): void => {
    if (!places.has(k)) places.set(k, place);
  };
  for (const turn of session.turns) {
    let own = turnPlaces.get(turn);
    if (own === undefined) {
      const list: Array<[string, ResponsePlace]> = [];
      const seen = new Set<string>();
      for (const atom of turn.atoms)
        take(atom, turn.id, (k, place) => {
          if (!seen.has(k)) list.push([k, place]);
          seen.add(k);
        });
      turnPlaces.set(turn, (own = list));
    }
    for (const [k, place] of own) first(k, place);
  }
  for (const list of Object.values(session.subagents ?? {})) for (const atom of list) take(atom, null, first);
  return places;
}

/**
 * `usage_facts` as `romp usage` counts them, for the lake and the index: one row per response `countUsage` counted over
 * the session's files and its
 * subagents' (dead branches and unlinked subagent files included, so the union of every machine's rows,
 * de-duplicated by `key`, is `romp usage` over the union of their files). The key (`factKey`) is
 * `["message.id","requestId"]`, else `["sessionId","message.id"]` (the line's `sessionId`); `is_sidechain` as the
 * lines say (a reader drops a sidechain row whose `message_id` a main-chain row has: countUsage's
 * rule 3, docs/lake.md). `atom_key` is `""` for a response off every path.
 * @param responses `countUsage(...).responses`
 * @param sessionKeyOf the session key of the file a response was read from
 * @param places each response's first atom and turn, by `message.id` NUL `requestId`
 * @param prices prices (default `PRICES`)
 * @returns the rows, in countUsage's order
 */
export function responseRows(
  responses: readonly Response[],
  sessionKeyOf: (file: string) => string,
  places: ReadonlyMap<string, ResponsePlace>,
  prices: Readonly<Record<string, Price>> = PRICES,
): UsageFactRow[] {
  return responses.map((r) => {
    const place = places.get(`${r.messageId}\u0000${r.requestId ?? ''}`);
    return {
      key: factKey(r.messageId, r.requestId, r.sessionId),
      session_key: sessionKeyOf(r.file),
      message_id: r.messageId,
      request_id: r.requestId ?? null,
      atom_key: place?.atom_key ?? '',
      turn_key: place?.turn_key ?? null,
      model: r.model,
      t: r.t,
      is_sidechain: r.isSidechain,
      lower_bound: r.lowerBound,
      ...usageCells(r, prices),
    };
  });
}
