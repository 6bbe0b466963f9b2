import { realpath } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sep } from 'node:path';
import { defaultProjectsDir, listClaudeSessions, type ClaudeSessionInfo } from '../discover/list-claude-sessions.ts';
import { timeFormat, type TimeFormat } from '../cli/format-time.ts';
import { buildHtmlPage } from '../html/build-html-page.ts';
import { watchSession } from '../live/watch-session.ts';
import { parseSession } from '../session/parse-session.ts';
import { countAtomUsage } from '../usage/count-usage.ts';
import { escapeHtml } from '../html/escape-html.ts';
import { renderSearchResults } from './render-search-results.ts';
import { renderSessionList, type SessionRow } from './render-session-list.ts';
import { indexSearch } from './index-search.ts';
import type { SessionSearch } from './session-search.ts';
import { listingCache } from './listing-cache.ts';
import { statStamp } from './stat-stamp.ts';
import { renderCandidates } from './render-candidates.ts';

/** Options of `startViewer`. */
export interface ViewerOptions {
  /** Claude Code's projects folder (default `$CLAUDE_CONFIG_DIR/projects`, else `~/.claude/projects`). */
  projectsDir?: string;
  /** Port; 0 (default) for a free one. */
  port?: number;
  /** Address to bind (default `127.0.0.1`). */
  host?: string;
  /** Characters of turns above which a session's page is split into parts (default `PART_CHARS`). */
  partChars?: number;
  /** What the search box asks (default `indexSearch()`: romp's index, read-only; "search needs `romp index`" without
   * one). */
  search?: SessionSearch;
  /** How the pages print times (default `timeFormat()`: the machine's zone). */
  time?: TimeFormat;
}

/** The most hits the search page shows. */
const SEARCH_LIMIT = 50;

/** The most sessions whose rendered pages the viewer keeps. */
const PAGES_KEPT = 4;

/** A running viewer. */
export interface Viewer {
  /** `http://host:port/`. */
  url: string;
  /** Stops it: closes the server and every event stream. */
  close(): Promise<void>;
}

/**
 * `romp serve`: a local web viewer of Claude Code's sessions (issue 18), read-only.
 *
 * - `GET /`: the session list (`listClaudeSessions`, subagent files left out) with turns and cost
 *   (each file listed and each session parsed once per `statStamp` of its file, then cached: `listingCache`).
 * - `GET /search?q=…`: the search box's results (`search`, by default romp's index read-only), each
 *   hit a link to `/s/<id>#<uuid>`.
 * - `GET /s/<id>`: the session's page, the renderer of `romp html` (`buildHtmlPage`, `live`); a long
 *   session is split into parts, `GET /s/<id>?part=N` (2, 3, …) the others, `?at=<uuid>` the one
 *   that holds that atom. The parts are kept per session (the last `PAGES_KEPT` sessions) and rendered
 *   again only when its file or a subagent's changed (`statStamp`: device, inode, size, mtime, ctime). A unique
 *   prefix of an id redirects (302) to the id's page (its query and `/events` kept); an ambiguous one is 404
 *   listing the candidates (`renderCandidates`).
 * - `GET /s/<id>/events`: server-sent events fed by `watchSession`: one `data: {"changed":[…]}` per
 *   update that changed a turn (after one `ready` event once the watcher has read the file); the page then re-fetches
 * itself and swaps its timeline and chat.
 *
 * A session is found by its id among the listed ones, never by a path from the request, and its file's
 * real path must lie inside the projects folder: anything else is 404. Only GET (and HEAD) is
 * answered (405 otherwise); nothing writes.
 * @param options projects folder, port, host, part size, search, time
 * @returns the viewer, listening
 */
export async function startViewer(options: ViewerOptions = {}): Promise<Viewer> {
  const projectsDir = await realpath(options.projectsDir ?? defaultProjectsDir());
  const host = options.host ?? '127.0.0.1';
  const time = options.time ?? timeFormat();
  const summaries = new Map<string, { stamp: string; turns: number; cost_usd: number }>();
  const pages = new Map<string, { stamp: string; parts: Promise<string[]> }>();
  const streams = new Set<AbortController>();

  const listings = listingCache();
  // every file listed again only when its stamp changed (listingCache); subagents and orphans too, then left out
  const sessions = async (): Promise<ClaudeSessionInfo[]> => {
    const all = await listClaudeSessions({ projectsDir, stored: listings.stored });
    listings.forget(all.flatMap((s) => [s.path, ...s.subagents]));
    return all.filter((s) => s.orphan !== true);
  };
  // the session of that id, else the one whose id starts with it, else the candidates of an ambiguous prefix
  const find = async (id: string): Promise<ClaudeSessionInfo | ClaudeSessionInfo[] | undefined> => {
    const all = await sessions();
    const exact = all.find((s) => s.id === id);
    const found = exact === undefined ? all.filter((s) => s.id.startsWith(id)) : [exact];
    if (found.length > 1) return found;
    const session = found[0];
    if (session === undefined) return undefined;
    const real = await realpath(session.path).catch(() => '');
    return real.startsWith(projectsDir + sep) ? session : undefined;
  };
  // a session's parts, rendered again only when its file or a subagent's changed (statStamp)
  const rendered = async (session: ClaudeSessionInfo): Promise<string[]> => {
    const stamp = await statStamp([session.path, ...session.subagents]);
    const kept = pages.get(session.path);
    if (kept?.stamp === stamp) return kept.parts;
    const href = (n: number): string => `/s/${encodeURIComponent(session.id)}${n === 1 ? '' : `?part=${n}`}`;
    const parts = buildHtmlPage([session.path], {
      live: true,
      partHref: href,
      time,
      ...(options.partChars === undefined ? {} : { partChars: options.partChars }),
    }).then((page) => page.parts);
    pages.delete(session.path);
    pages.set(session.path, { stamp, parts });
    for (const old of pages.keys()) if (pages.size > PAGES_KEPT) pages.delete(old);
    parts.catch(() => pages.delete(session.path));
    return parts;
  };
  const row = async (s: ClaudeSessionInfo): Promise<SessionRow> => {
    const stamp = await statStamp([s.path]);
    let summary = summaries.get(s.path);
    if (summary?.stamp !== stamp) {
      const { session } = await parseSession([s.path]);
      summary = {
        stamp,
        turns: session.turns.length,
        cost_usd: countAtomUsage(session.turns.flatMap((t) => t.atoms)).cost_usd,
      };
      summaries.set(s.path, summary);
    }
    return {
      id: s.id,
      project: s.cwd || s.project,
      title: s.title || s.firstPrompt,
      last: s.last,
      turns: summary.turns,
      cost_usd: summary.cost_usd,
    };
  };

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return send(response, 405, 'text/plain', 'read-only\n');
    const url = new URL(request.url ?? '/', 'http://localhost');
    const path = url.pathname;
    if (path === '/') {
      const rows: SessionRow[] = [];
      for (const s of await sessions()) rows.push(await row(s));
      return send(response, 200, 'text/html', renderSessionList(rows, time));
    }
    if (path === '/search') {
      const query = (url.searchParams.get('q') ?? '').trim();
      const answer =
        query === ''
          ? { hits: [] }
          : await (options.search ?? indexSearch())(query, { projectsDir, limit: SEARCH_LIMIT });
      return send(response, 200, 'text/html', renderSearchResults(query, answer, time));
    }
    const match = /^\/s\/([0-9A-Za-z_-]+)(\/events)?$/.exec(path);
    const session = match === null ? undefined : await find(match[1] as string);
    if (match === null || session === undefined) return send(response, 404, 'text/plain', 'no such page\n');
    if (Array.isArray(session))
      return send(
        response,
        404,
        'text/html',
        renderCandidates(match[1] as string, await Promise.all(session.map(row)), time),
      );
    if (session.id !== match[1]) {
      response.writeHead(302, { location: `/s/${encodeURIComponent(session.id)}${match[2] ?? ''}${url.search}` });
      return void response.end();
    }
    if (match[2] === undefined) {
      const parts = await rendered(session);
      // ?at=<uuid>: the part that holds that atom (a link from the search, or from a part that did not have it)
      const at = url.searchParams.get('at');
      const holding = at === null ? -1 : parts.findIndex((p) => p.includes(` id="${escapeHtml(at)}"`));
      const part = parts[holding >= 0 ? holding : Number(url.searchParams.get('part') ?? '1') - 1];
      return part === undefined
        ? send(response, 404, 'text/plain', 'no such part\n')
        : send(response, 200, 'text/html', part);
    }
    const stop = new AbortController();
    streams.add(stop);
    request.on('close', () => stop.abort());
    response.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    });
    let first = true;
    for await (const update of watchSession([session.path], { signal: stop.signal, debounceMs: 50 })) {
      // the first state is the page's: say the stream is ready; every later one is a change
      response.write(first ? 'event: ready\ndata: {}\n\n' : `data: ${JSON.stringify({ changed: update.changed })}\n\n`);
      first = false;
    }
    streams.delete(stop);
    response.end();
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((error: Error) => {
      if (!response.headersSent) send(response, 500, 'text/plain', `error: ${error.message}\n`);
      else response.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  return {
    url: `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}/`,
    close: async () => {
      for (const stop of streams) stop.abort();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function send(response: ServerResponse, status: number, type: string, body: string): void {
  response.writeHead(status, {
    'content-type': `${type}; charset=utf-8`,
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    'content-length': Buffer.byteLength(body),
  });
  response.end(body);
}
