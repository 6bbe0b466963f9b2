import { diagnostic } from '../diagnostics/diagnostic.ts';
import type { Atom } from '../model/types.ts';
import { escapeHtml } from './escape-html.ts';
import type { RenderContext } from './render-context.ts';

/** The most characters of one tool input or result a page shows. */
export const TEXT_CAP = 20_000;

/**
 * Text cut to `cap` characters for a page, as escaped HTML, with a visible note of the full size when
 * cut; each cut is an `HTML_TRUNCATED` diagnostic (info) naming the atom.
 * @param text the text
 * @param atom the atom it belongs to (for the diagnostic's file and uuid)
 * @param what what was cut (`tool result`, `image`), for the note
 * @param ctx where the diagnostic goes
 * @param cap characters kept (default {@link TEXT_CAP})
 * @returns `{html, cut}`: the escaped (maybe cut) text, and the note (`""` when nothing was cut)
 */
export function capText(
  text: string,
  atom: Pick<Atom, 'uuid' | 'fsid'>,
  what: string,
  ctx: RenderContext,
  cap: number = TEXT_CAP,
): { html: string; note: string } {
  if (text.length <= cap) return { html: escapeHtml(text), note: '' };
  return {
    html: escapeHtml(text.slice(0, cap)),
    note: truncated(
      `${what}: showing ${cap.toLocaleString('en')} of ${text.length.toLocaleString('en')} characters`,
      atom,
      ctx,
    ),
  };
}

/**
 * Records a cut: an `HTML_TRUNCATED` diagnostic, and the note the page shows for it.
 * @param message what was cut, and how much of it is shown
 * @param atom the atom it belongs to
 * @param ctx where the diagnostic goes
 * @returns the note as HTML (`<p class="cut">`)
 */
export function truncated(message: string, atom: Pick<Atom, 'uuid' | 'fsid'>, ctx: RenderContext): string {
  ctx.diagnostics.push(
    diagnostic('HTML_TRUNCATED', message, {
      file: (atom.fsid === undefined ? undefined : ctx.paths.get(atom.fsid)) ?? '',
      uuid: atom.uuid,
    }),
  );
  return `<p class="cut">truncated: ${escapeHtml(message)}</p>`;
}
