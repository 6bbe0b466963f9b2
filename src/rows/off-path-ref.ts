import type { RecordRef } from '../model/types.ts';

/** Per records list, its off-path refs by uuid (the last of each) and how many records were looked at. */
const scanned = new WeakMap<readonly RecordRef[], { count: number; refs: Map<string, RecordRef> }>();

/**
 * The last record of `records` with this uuid that is off the active path (`onPath: false`), as a rewound line's row
 * takes its fsid, line and byte offset from. A session's `records` is shared between the live watcher's snapshots and
 * only appended to, a progress row's `onPath` only turning true: the lookup is kept per list and only the records
 * added since are looked at, so rewriting an append's rows costs the new records, not the session's (a ref that has
 * come on the path since sends the list to be looked at again whole).
 * @param records a session's `records`
 * @param uuid the line's uuid
 * @returns its ref, or `undefined`
 */
export function offPathRef(records: readonly RecordRef[], uuid: string): RecordRef | undefined {
  let memo = scanned.get(records);
  if (memo === undefined) scanned.set(records, (memo = { count: 0, refs: new Map() }));
  for (; memo.count < records.length; memo.count++) {
    const r = records[memo.count] as RecordRef;
    if (r.onPath === false && r.uuid !== undefined) memo.refs.set(r.uuid, r);
  }
  const ref = memo.refs.get(uuid);
  if (ref === undefined || ref.onPath === false) return ref;
  scanned.delete(records);
  return offPathRef(records, uuid);
}
