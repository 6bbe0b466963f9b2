import type { Entry } from './entry.ts';
import { holdShape } from '../model/hold-shape.ts';

/**
 * A set of graph entries keyed by `Entry.pos` (their index in `GraphIndex.ordered`): one byte per
 * entry, so membership costs an array read instead of hashing a uuid string. Grows as entries with
 * higher positions are added (the live watcher appends to `ordered`).
 */
export class EntrySet {
  #marks: Uint8Array;
  #size = 0;

  /** @param capacity how many positions to make room for at first (it grows past this as needed) */
  constructor(capacity = 0) {
    this.#marks = new Uint8Array(Math.max(16, capacity));
  }

  /** Entries in the set. */
  get size(): number {
    return this.#size;
  }

  /**
   * @param entry an indexed entry (progress rows, `pos` -1, are never members)
   * @returns whether it is in the set
   */
  has(entry: Entry): boolean {
    return this.#marks[entry.pos] === 1;
  }

  /**
   * Adds an entry.
   * @param entry an indexed entry
   * @throws RangeError for an entry that has no position (a progress row, or not yet indexed)
   */
  add(entry: Entry): void {
    const pos = entry.pos;
    if (pos < 0) throw new RangeError(`entry ${entry.uuid} has no position in the index`);
    if (pos >= this.#marks.length) {
      const grown = new Uint8Array(Math.max(pos + 1, this.#marks.length * 2));
      grown.set(this.#marks);
      this.#marks = grown;
    }
    if (this.#marks[pos] === 1) return;
    this.#marks[pos] = 1;
    this.#size++;
  }

  /**
   * Removes an entry (the live builder re-resolving an open response takes its lines off first).
   * @param entry an indexed entry
   */
  delete(entry: Entry): void {
    if (this.#marks[entry.pos] !== 1) return;
    this.#marks[entry.pos] = 0;
    this.#size--;
  }
}

holdShape(new EntrySet());
