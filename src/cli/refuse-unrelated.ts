import { firstSessionId } from '../discover/first-session-id.ts';
import type { Session } from '../model/types.ts';
import { UserError } from './cli-io.ts';

/**
 * Refuses files that hold more than one session, so that a command never shows one of them silently.
 * Two files are related when they share a line uuid (Claude Code's resume and `--fork-session` copy
 * the history's lines, uuids kept, into the new file) or the `sessionId` of their first line that has
 * one (a subagent's file, a renamed copy); relatedness is transitive. The uuids come from the parse
 * (atoms and records, copies included); the `sessionId`s from each file's first 16 KiB. A file with
 * neither is no evidence either way and is left alone.
 * @param parsed the parse of the files (a `ParseResult`, a watch update, a `SessionState`: its `session`)
 * @throws UserError (exit 2), one line naming the files of each unrelated group
 */
export async function refuseUnrelated({ session }: { session: Session }): Promise<void> {
  if (session.files.length < 2) return;
  const group = new Map<string, string>(); // fsid -> a representative fsid
  const find = (fsid: string): string => {
    let root = fsid;
    for (let next = group.get(root); next !== undefined && next !== root; next = group.get(root)) root = next;
    group.set(fsid, root);
    return root;
  };
  const owner = new Map<string, string>(); // uuid or session id -> the first fsid that held it
  const join = (key: string, fsid: string): void => {
    if (!group.has(fsid)) group.set(fsid, fsid);
    const first = owner.get(key);
    if (first === undefined) owner.set(key, fsid);
    else group.set(find(fsid), find(first));
  };
  for (const turn of session.turns)
    for (const atom of turn.atoms) if (atom.fsid !== undefined) join(`u:${atom.uuid}`, atom.fsid);
  for (const record of session.records) if (record.uuid !== undefined) join(`u:${record.uuid}`, record.fsid);
  const ids = await Promise.all(session.files.map((f) => firstSessionId(f.path)));
  session.files.forEach((file, i) => {
    const id = ids[i];
    if (id !== undefined) join(`s:${id}`, file.fsid);
  });
  const groups = new Map<string, string[]>();
  for (const file of session.files) {
    if (!group.has(file.fsid)) continue;
    const root = find(file.fsid);
    groups.set(root, [...(groups.get(root) ?? []), file.path]);
  }
  if (groups.size < 2) return;
  const named = [...groups.values()].map((paths) => paths.join(' + ')).join(', ');
  throw new UserError(`these files hold ${groups.size} unrelated sessions, give the files of one: ${named}`);
}
