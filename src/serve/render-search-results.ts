import { escapeHtml } from '../html/escape-html.ts';
import type { TimeFormat } from '../cli/format-time.ts';
import { markMatches } from '../text/match-marks.ts';
import type { SearchAnswer } from './session-search.ts';
import { renderViewerPage } from './render-viewer-page.ts';

/**
 * The results page of `romp serve` (`/search?q=…`): each hit a link to `/s/<session id>#<atom uuid>`
 * (the session's page at the atom; `/s/<session id>?open=thinking#<atom uuid>` for a hit in a thinking block,
 * which the page opens), with the session's title (else its id's first 8 characters), the
 * project, turn, time, author and snippet (its matches in `<mark>`), everything from
 * the index escaped; or, when the search
 * cannot run, why (`search needs \`romp index\``).
 * @param query what was searched
 * @param answer the search's answer
 * @param time how times are printed (`timeFormat`), the zone said in the heading
 * @returns the HTML document
 */
export function renderSearchResults(query: string, answer: SearchAnswer, time: TimeFormat): string {
  const heading = `Search<span class="meta"><a href="/">all sessions</a> · times in ${escapeHtml(time.zone)}</span>`;
  if ('unavailable' in answer)
    return renderViewerPage(
      `search: ${query}`,
      heading,
      query,
      `<p class="cut" id="search-unavailable">${escapeHtml(answer.unavailable)}</p>`,
    );
  const rows = answer.hits.map((hit) => {
    const name = hit.title === undefined || hit.title === '' ? hit.session_id.slice(0, 8) : hit.title;
    const open = hit.role === 'thinking' ? '?open=thinking' : '';
    const href = `/s/${encodeURIComponent(hit.session_id)}${open}#${encodeURIComponent(hit.uuid)}`;
    return `<li class="hit-row"><a href="${escapeHtml(href)}">${escapeHtml(name.replace(/\s+/g, ' ').slice(0, 120))}</a> <span class="meta">${escapeHtml(hit.project ?? '')} · ${hit.turn === null ? 'rewound' : `turn ${hit.turn}`} · ${time.format(hit.t)} · ${escapeHtml(hit.author)}</span><div class="snippet">${markMatches({ text: hit.snippet, matches: hit.matches ?? [] }, '<mark>', '</mark>', escapeHtml)}</div></li>`;
  });
  const count = `<p id="search-count">${answer.hits.length} hit${answer.hits.length === 1 ? '' : 's'} for “${escapeHtml(query)}”</p>`;
  return renderViewerPage(`search: ${query}`, heading, query, `${count}<ol class="hits">${rows.join('')}</ol>`);
}
