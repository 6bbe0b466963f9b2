import { escapeHtml } from './escape-html.ts';

const ID = / id="([^"]*)"/g;
const HREF = /href="#([^"]*)"/g;

/**
 * Makes the anchors of a split page resolvable across its parts: each `href="#<uuid>"` whose target
 * is not in its own part but in another goes to that part (`href="<part>#<uuid>"`), so a timeline bar,
 * a compaction marker or a branch link lands on its atom wherever it is. The ids are read from each
 * part's own markup (chat and branches: every element the renderers anchor); ids and hrefs are compared
 * as written (both escaped by `escapeHtml`). Linear in the pages' length.
 * @param pages each part's whole page
 * @param anchored each part's anchored markup (where its ids are read)
 * @param href the address of part `n` (1-based), as a link from another part
 * @returns the pages with their links rewritten
 */
export function linkParts(
  pages: readonly string[],
  anchored: readonly string[],
  href: (n: number) => string,
): string[] {
  if (pages.length < 2) return [...pages];
  const home = new Map<string, number>();
  anchored.forEach((html, part) => {
    for (const match of html.matchAll(ID)) if (!home.has(match[1] as string)) home.set(match[1] as string, part);
  });
  return pages.map((page, part) =>
    page.replace(HREF, (whole, id: string) => {
      const there = home.get(id);
      return there === undefined || there === part ? whole : `href="${escapeHtml(href(there + 1))}#${id}"`;
    }),
  );
}
