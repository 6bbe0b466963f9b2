import { stat } from 'node:fs/promises';
import type { OnDiagnostic } from '../diagnostics/diagnostic.ts';
import type { Session } from '../model/types.ts';
import { postalLogPath, postalResolver, readPostalLog } from '../romp-home/postal-log.ts';
import { listSessions, registryFolder, resolveSession, type RegistryEntry } from '../romp-home/registry.ts';
import { readIdleSpans, stateLogPath } from '../romp-home/state-log.ts';
import type { ResolvePeer } from '../tree/derive-author.ts';
import { insertIdle, type IdleSpan } from '../tree/insert-idle.ts';

/**
 * romp's own layer over a session (docs/romp-home.md), one per session builder: the registry entry
 * (its files, and its name, dir and colour, which win), postal senders from `timeline/messages.jsonl`,
 * idle atoms from `states/<sid>.jsonl` of every file. Each file is read again only when its size,
 * modification time or inode changed, so a live session pays for a few `stat` calls per update.
 * Without a home, it adds nothing.
 */
export class HomeContext {
  readonly #home: string | undefined;
  readonly #rompUuid: string | undefined;
  readonly #now: number | undefined;
  #entry: RegistryEntry | undefined;
  #stamp: string | undefined;
  #resolvePeer: ResolvePeer = () => null;
  readonly #idle = new Map<string, { stamp: string; spans: IdleSpan[] }>();

  /**
   * @param home romp's home folder, if any
   * @param rompUuid the session's rompUuid, for its registry entry
   * @param now the current time (epoch ms) for an idle span still open; default `Date.now()` at each `apply`
   */
  constructor(home: string | undefined, rompUuid: string | undefined, now?: number) {
    this.#home = home;
    this.#rompUuid = rompUuid;
    this.#now = now;
  }

  /** Looks up the sender of a postal message, as the postal log and registry were last read. */
  get resolvePeer(): ResolvePeer {
    return this.#resolvePeer;
  }

  /**
   * The session's files as its registry entry lists them now (none without a home or rompUuid).
   * @returns the paths
   */
  async files(): Promise<string[]> {
    if (this.#home === undefined || this.#rompUuid === undefined) return [];
    // a damaged entry is reported once, by listSessions in `refresh`
    this.#entry = await resolveSession(this.#home, this.#rompUuid);
    return this.#entry?.files.map((f) => f.path) ?? [];
  }

  /**
   * Reads the postal log, the registry and the session's entry again when they changed.
   * @param onDiagnostic receives bad lines of the postal log and damaged registry entries
   * @returns whether they changed (authors anywhere in the session may differ then)
   */
  async refresh(onDiagnostic: OnDiagnostic): Promise<boolean> {
    const home = this.#home;
    if (home === undefined) return false;
    const stamp = `${await stampOf(postalLogPath(home))}|${await stampOf(registryFolder(home))}`;
    if (stamp === this.#stamp) return false;
    this.#stamp = stamp;
    this.#resolvePeer = postalResolver(await readPostalLog(home, onDiagnostic), await listSessions(home, onDiagnostic));
    if (this.#rompUuid !== undefined) this.#entry = await resolveSession(home, this.#rompUuid);
    return true;
  }

  /**
   * The session with romp's layer: the entry's name, dir and colour where set, and idle atoms (an open
   * span ends now).
   * @param session the session built from the transcripts
   * @param onDiagnostic receives bad lines of the state logs
   * @returns the session, a new object when anything was added
   */
  async apply(session: Session, onDiagnostic: OnDiagnostic): Promise<Session> {
    const home = this.#home;
    if (home === undefined) return session;
    const entry = this.#entry;
    if (entry !== undefined)
      session = {
        ...session,
        name: entry.name || session.name,
        dir: entry.dir || session.dir,
        color: entry.color || session.color,
      };
    const spans: IdleSpan[] = [];
    for (const { fsid } of session.files) {
      const stamp = await stampOf(stateLogPath(home, fsid));
      let known = this.#idle.get(fsid);
      if (known?.stamp !== stamp) {
        known = { stamp, spans: await readIdleSpans(home, fsid, onDiagnostic) };
        this.#idle.set(fsid, known);
      }
      spans.push(...known.spans);
    }
    return insertIdle(session, spans, this.#now ?? Date.now());
  }
}

/**
 * A file's size, modification time and inode as one string (`-` when it is missing): what changed it.
 * @param path the file or folder
 * @returns the stamp
 */
export async function stampOf(path: string): Promise<string> {
  const info = await stat(path).catch(() => undefined);
  return info === undefined ? '-' : `${info.size}:${info.mtimeMs}:${info.ino}`;
}
