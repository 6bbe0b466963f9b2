import type { BlockRow } from '../rows/row-types.ts';
import type { Database } from './database.ts';

/** The time block ids count from (epoch ms, 2020-01-01 UTC): an atom before it takes the first id of this
 * millisecond. */
export const BLOCK_ID_EPOCH: number = Date.UTC(2020, 0, 1);

/** Ids per millisecond of atom time: a block's id is `(t - BLOCK_ID_EPOCH) × BLOCK_ID_SLOTS` plus a slot of its key's
 * hash. 41 bits of milliseconds (until 2089) and 12 of slot stay within JavaScript's exact integers (2^53). */
export const BLOCK_ID_SLOTS = 4096;

/** The last millisecond an id holds (41 bits from `BLOCK_ID_EPOCH`): a later atom takes its ids. */
export const BLOCK_ID_LAST_MS: number = 2 ** 41 - 1;

/**
 * The ids (`blocks.id`, the full-text indexes' rowid) of blocks about to be written: in the order of their atom's time
 * (`atoms.t`, epoch ms), and within one millisecond by a hash of (`session_key`, `key`), so that the index's rowid
 * order is time order whatever order the files were read in, and a rebuild gives every block the same id (`romp
 * search` ranks a common word's newest blocks, the highest rowids: docs/index.md, "Search"). An id already taken (in
 * the index, or by a block before it in `blocks`) moves to the next free one: two blocks of one millisecond whose keys
 * hash to one slot are then in the order written (one pair in 4,096 of blocks written within the same millisecond).
 * @param db the index, without the rows these blocks replace (they were deleted first: their ids are free)
 * @param blocks the rows to write
 * @param times each atom's time by its key (`atoms.t`); an atom not in it counts as time 0
 * @returns an id for each block, in order
 */
export function blockIds(db: Database, blocks: readonly BlockRow[], times: ReadonlyMap<string, number>): number[] {
  const ids = blocks.map((b) => {
    const ms = Math.min(BLOCK_ID_LAST_MS, Math.max(0, Math.floor((times.get(b.atom_key) ?? 0) - BLOCK_ID_EPOCH)));
    return ms * BLOCK_ID_SLOTS + (fnv1a(`${b.session_key}\u0000${b.key}`) % BLOCK_ID_SLOTS);
  });
  const mine = new Set<number>();
  const free = (id: number, taken: ReadonlySet<number>): number => {
    while (mine.has(id) || taken.has(id)) id++;
    return id;
  };
  for (let i = 0; i < ids.length; i++) mine.add((ids[i] = free(ids[i] as number, mine)));
  // the ids the index holds already, asked for in one statement, again for the ids moved until none is taken
  let asked = ids.map((_, i) => i);
  const taken = new Set<number>();
  while (asked.length > 0) {
    const clash = db.all('SELECT id FROM blocks WHERE id IN (SELECT value FROM json_each(?))', [
      JSON.stringify(asked.map((i) => ids[i])),
    ]);
    if (clash.length === 0) break;
    for (const r of clash) taken.add(Number(r['id']));
    const moved: number[] = [];
    for (const i of asked) {
      const id = ids[i] as number;
      if (!taken.has(id)) continue;
      mine.delete(id);
      mine.add((ids[i] = free(id, taken)));
      moved.push(i);
    }
    asked = moved;
  }
  return ids;
}

/** FNV-1a, 32 bits, of a string's UTF-16 code units. */
function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}
