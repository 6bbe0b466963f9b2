import { formatDiagnostic, type Diagnostic } from '../diagnostics/diagnostic.ts';
import { shownDiagnostic } from '../cli/stdin-copy.ts';
import { DIAGNOSTICS_SHOWN } from '../cli/write-diagnostics.ts';
import { formatCount, plural } from '../text/format-count.ts';
import { escapeHtml } from './escape-html.ts';

/**
 * The parse's diagnostics in a page's header, as `romp show` prints them on stderr: a collapsed
 * `<details class="diagnostics">` whose summary counts them (`2 diagnostics: 2 errors`), listing the first
 * 20 (`file:line: severity CODE message`, escaped) and then how many more, with where to see them all.
 * @param diagnostics the parse's diagnostics (`parseSession`), in the order met
 * @returns the HTML; `''` when there are none
 */
export function renderDiagnostics(diagnostics: readonly Diagnostic[]): string {
  if (diagnostics.length === 0) return '';
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  const items = diagnostics
    .slice(0, DIAGNOSTICS_SHOWN)
    .map((d) => `<li>${escapeHtml(formatDiagnostic(shownDiagnostic(d)))}</li>`);
  if (diagnostics.length > DIAGNOSTICS_SHOWN)
    items.push(
      `<li>… and ${formatCount(diagnostics.length - DIAGNOSTICS_SHOWN)} more; romp doctor FILE lists them all</li>`,
    );
  return `<details class="diagnostics"><summary>${plural(diagnostics.length, 'diagnostic')}${errors === 0 ? '' : `: ${plural(errors, 'error')} (input lost)`}</summary><ul>${items.join('')}</ul></details>`;
}
