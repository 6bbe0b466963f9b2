/** A page's share of a session's turns: `[from, to)`, 0-based turn indexes. */
export type PartRange = readonly [from: number, to: number];

/**
 * Where a long session's page is split (issue 18: "above a size you choose, split at compaction
 * boundaries or paginate"): turns are kept whole and in order; a part ends after a turn that holds a
 * compaction (Claude Code writes the boundary and its summary at the end of the turn it interrupts, so
 * the next part opens on the first turn after it) once the part has reached half of `partChars`, else
 * before the turn that would take it past `partChars` (a single turn larger than that is a part of its
 * own). One part when everything fits.
 * @param sizes each turn's rendered HTML, in characters
 * @param compaction whether each turn holds a `compact_boundary`
 * @param partChars the most characters a part should hold
 * @returns the parts, covering every turn (`[[0, 0]]` without turns)
 */
export function splitTurns(sizes: readonly number[], compaction: readonly boolean[], partChars: number): PartRange[] {
  const parts: PartRange[] = [];
  let from = 0;
  let size = 0;
  sizes.forEach((turn, i) => {
    if (i > from && ((compaction[i - 1] === true && size >= partChars / 2) || size + turn > partChars)) {
      parts.push([from, i]);
      from = i;
      size = 0;
    }
    size += turn;
  });
  parts.push([from, sizes.length]);
  return parts;
}
