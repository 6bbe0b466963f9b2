import { escapeHtml } from '../html/escape-html.ts';
import { PAGE_STYLE } from '../html/page-style.ts';
import { pagePolicy } from '../html/render-page.ts';

/**
 * A page of `romp serve` other than a session's (the list, the search results): no script, the page
 * style, the CSP of a page with forms to its own origin (the search box), the viewport of the device's width (a
 * phone lays it out at its own width, where the list stacks), a heading and a search box.
 * @param title the document's title (text)
 * @param heading the `<h1>`'s HTML
 * @param query what the search box holds (text)
 * @param body the `<main>`'s HTML
 * @returns the HTML document
 */
export function renderViewerPage(title: string, heading: string, query: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(pagePolicy(false, true))}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · romp</title>
<style>${PAGE_STYLE}</style></head>
<body><div class="top"><h1>${heading}</h1>
<form class="bar" method="get" action="/search" role="search"><input type="search" name="q" value="${escapeHtml(query)}" placeholder="search every session" aria-label="search every session" required> <button type="submit">search</button></form></div>
<main>${body}</main></body></html>
`;
}
