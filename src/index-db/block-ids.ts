import type { BlockRow } from '../rows/row-types.ts';
import type { SearchQueue } from './search-queue.ts';

/** The time block ids count from (epoch ms, 2020-01-01 UTC): an atom before it counts as at it. */
export const BLOCK_ID_EPOCH: number = Date.UTC(2020, 0, 1);

/** Milliseconds of atom time per id: a block's id is at least its atom's time (from {@link BLOCK_ID_EPOCH}) in these
 * units, `blockBase`. Ids are dense where blocks are (more than one block per unit: each the one before + 1) and skip
 * where time does: 100 ms keeps a common word's rowid deltas to a byte or two (an index 3 % larger than ids of no gaps
 * at all) and the runs of ids one after the other short (about 100 blocks; 1 s made most of the bench's blocks one run
 * of 79,000, which a block written into them moves). */
export const BLOCK_ID_UNIT_MS = 100;

/** The last millisecond from {@link BLOCK_ID_EPOCH} an id tells apart (41 bits, until 2089): a later atom counts as at
 * it. */
export const BLOCK_ID_LAST_MS: number = 2 ** 41 - 1;

/** A block's time in its order (SQL, over `blocks b`, `atoms a`, `sessions s`): its atom's, else (unknown, `0`) its
 * session's first (`sessions.first_t`), so that the blocks of unknown time are not one run of ids at the start that
 * every session's would be written into. */
export const BLOCK_TIME_SQL = 'CASE WHEN coalesce(a.t, 0) <> 0 THEN a.t ELSE coalesce(s.first_t, 0) END';

/**
 * The least id of a block whose atom is at `t`: its unit of {@link BLOCK_ID_UNIT_MS} from {@link BLOCK_ID_EPOCH}, plus
 * one (ids start at 1).
 * @param t the atom's time (epoch ms; `0`, unknown, counts as the epoch)
 */
export function blockBase(t: number): number {
  return Math.floor(Math.min(BLOCK_ID_LAST_MS, Math.max(0, t - BLOCK_ID_EPOCH)) / BLOCK_ID_UNIT_MS) + 1;
}

/** A block in id order: its atom's time, session, atom and place in the atom. */
interface Placed {
  t: number;
  session_key: string;
  atom_key: string;
  index: number;
}

/** The order of blocks, which their ids follow: by atom time, then session key, atom key and place in the atom (UTF-16
 * code units: the same in every process, whatever order the files were read in). */
function before(x: Placed, y: Placed): boolean {
  if (x.t !== y.t) return x.t < y.t;
  if (x.session_key !== y.session_key) return x.session_key < y.session_key;
  if (x.atom_key !== y.atom_key) return x.atom_key < y.atom_key;
  return x.index < y.index;
}

/** Existing blocks read at a time when walking ids upwards. */
const PAGE = 16;

/**
 * The ids (`blocks.id`, the full-text indexes' rowid) of blocks about to be written, in the order of the blocks (their
 * atom's time, `atoms.t`, then session key, atom key and index), whatever order the files are read in, so that `romp
 * search` ranks a common word's newest blocks, the highest rowids (docs/index.md, "Search"), the same after a rebuild.
 * Over all blocks in that order (a block of unknown time at its session's first, {@link BLOCK_TIME_SQL}), each id is
 * the larger of its `blockBase` and the id before + 1: small steps between the ids of a full-text doclist (FTS5
 * stores each step as a varint), gaps where time passes, so that a block written later (a file read after another, an
 * old session resumed) mostly finds its place free. When it does not, the blocks after it whose ids it needs (a run of
 * ids one after the other) are moved up by one, in the table and in both full-text indexes (through `search`): blocks
 * are never out of order. Blocks newer than every other (an append) take the next ids, moving none. Each new block
 * costs at most two point queries (the existing blocks before and from its base; those in between are read a page at
 * a time).
 * @param search the running transaction's queue of full-text entries (its connection: the index, without the rows
 * these blocks replace, deleted first: their ids are free); the blocks moved are pending in it under their new ids
 * @param blocks the rows to write, of one session
 * @param times each atom's time by its key (`atoms.t`); an atom not in it counts as time 0
 * @param firstT the session's first time (`sessions.first_t`), a block's of unknown time ({@link BLOCK_TIME_SQL})
 * @returns an id for each block, in order (the caller adds them to `search` once written)
 */
export function blockIds(
  search: SearchQueue,
  blocks: readonly BlockRow[],
  times: ReadonlyMap<string, number>,
  firstT: number,
): number[] {
  const { db } = search;
  const ids: number[] = new Array<number>(blocks.length);
  const order = blocks
    .map(({ session_key, atom_key, index }, i) => ({
      i,
      t: times.get(atom_key) || firstT,
      session_key,
      atom_key,
      index,
    }))
    .sort((x, y) => (before(x, y) ? -1 : before(y, x) ? 1 : 0));
  const first = order[0];
  if (first === undefined) return ids;
  const below = (base: number): number =>
    Number(db.all('SELECT coalesce(max(id), 0) AS id FROM blocks WHERE id < ?', [base])[0]?.['id'] ?? 0);
  // the existing blocks from an id upwards, a page at a time
  let page: Array<Placed & { id: number }> = [];
  let at = 0;
  const from = (id: number): void => {
    page = db
      .all(
        `SELECT b.id, ${BLOCK_TIME_SQL} AS t, b.session_key, b.atom_key, b."index" FROM blocks b
          LEFT JOIN atoms a ON a.session_key = b.session_key AND a.key = b.atom_key LEFT JOIN sessions s ON s.key = b.session_key
          WHERE b.id >= ? ORDER BY b.id LIMIT ${PAGE}`,
        [id],
      )
      .map((r) => ({
        id: Number(r['id']),
        t: Number(r['t']),
        session_key: String(r['session_key']),
        atom_key: String(r['atom_key']),
        index: Number(r['index']),
      }));
    at = 0;
  };
  const peek = (): (Placed & { id: number }) | undefined => page[at];
  const next = (): void => {
    const last = page[at++] as { id: number };
    if (at === page.length && page.length === PAGE) from(last.id + 1);
  };
  const moves: Array<[number, number]> = [];
  let prev = below(blockBase(first.t));
  from(blockBase(first.t));
  for (const b of order) {
    const base = blockBase(b.t);
    // the existing blocks before this one: an id below its base is an earlier block's
    for (let e = peek(); e !== undefined && (e.id < base || before(e, b)); e = peek()) {
      if (e.id <= prev) moves.push([e.id, ++prev]);
      else if (e.id < base && at === PAGE - 1) {
        // the page's last, not moved, nor any after it below the base: skipped
        prev = below(base);
        from(base);
        continue;
      } else prev = e.id;
      next();
    }
    ids[b.i] = prev = Math.max(base, prev + 1);
  }
  // the blocks after the last one whose ids it took
  for (let e = peek(); e !== undefined && e.id <= prev; e = peek()) {
    moves.push([e.id, ++prev]);
    next();
  }
  if (moves.length > 0) moveBlocks(search, moves);
  return ids;
}

/** Gives blocks new ids (`[old, new]`, in order, each new id above its old one and below the next one's new id), in
 * `blocks` and in `search` (entries made under the old ids taken out, made again under the new at its flush). */
function moveBlocks(search: SearchQueue, moves: ReadonlyArray<[number, number]>): void {
  search.move(moves);
  // the highest first: each new id is free when it is taken
  for (let i = moves.length - 1; i >= 0; i--) {
    const [o, n] = moves[i] as [number, number];
    search.db.run('UPDATE blocks SET id = ? WHERE id = ?', [n, o]);
  }
}
