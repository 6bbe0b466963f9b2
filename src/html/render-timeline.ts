import type { Session } from '../model/types.ts';
import { segments } from '../views/segments.ts';
import { typedText } from '../views/prompt-text.ts';
import { authorName } from './author-name.ts';
import { escapeHtml } from './escape-html.ts';
import type { TimeFormat } from '../cli/format-time.ts';
import { duration } from './format-numbers.ts';

/** Width of the strip in SVG units. */
const WIDTH = 1000;

/**
 * The timeline strip: an SVG with one bar per segment (`segments`: a turn split at its inputs), each a
 * link to its input's uuid (else its first atom's), coloured by the input's author (`seg-human`,
 * `seg-sdk`, `seg-peer`, `seg-system`, `seg-autonomous`), with a tooltip of what was typed and when.
 * Time runs left to right; a pause between segments (idle) is a gap, capped at a twentieth of the active
 * time so a night away does not squash the day; a bar is at least 2 units wide. Compactions are
 * vertical markers linking to their boundary. Plain links: works without script.
 * @param session the session
 * @param time how the tooltips print times (`timeFormat`)
 * @returns the SVG's HTML (`""` for a session without atoms)
 */
export function renderTimeline(session: Session, time: TimeFormat): string {
  const list = segments(session);
  if (list.length === 0) return '';
  const active = list.reduce((n, s) => n + Math.max(0, s.end - s.t), 0);
  const gapCap = Math.max(1000, active / 20);
  // x position of each segment on a clock whose long pauses are cut to gapCap
  const starts: number[] = [];
  let clock = 0;
  let previousEnd = list[0]?.t ?? 0;
  for (const s of list) {
    clock += Math.min(Math.max(0, s.t - previousEnd), gapCap);
    starts.push(clock);
    clock += Math.max(0, s.end - s.t);
    previousEnd = Math.max(previousEnd, s.end);
  }
  const scale = clock === 0 ? 0 : WIDTH / clock;
  const byUuid = new Map(session.turns.flatMap((t) => t.atoms).map((a) => [a.uuid, a]));
  const bars = list.map((s, i) => {
    const input = s.input === null ? undefined : byUuid.get(s.input);
    const author = authorName(input?.author ?? null);
    const x = (starts[i] ?? 0) * scale;
    const w = Math.max(2, (s.end - s.t) * scale);
    const target = s.input ?? s.atoms[0]?.uuid ?? '';
    const text = input === undefined ? '(continued)' : typedText(input).replace(/\s+/g, ' ').slice(0, 120);
    return `<a href="#${escapeHtml(target)}"><rect class="seg seg-${author.kind}" x="${x.toFixed(1)}" y="4" width="${w.toFixed(1)}" height="24"><title>${escapeHtml(`${time.format(s.t)} · ${author.label} · ${duration(s.end - s.t)} · ${text}`)}</title></rect></a>`;
  });
  const marks = list.flatMap((s, i) =>
    s.atoms
      .filter((a) => a.type === 'system' && a.subtype === 'compact_boundary')
      .map((a) => {
        const x = ((starts[i] ?? 0) + Math.max(0, a.t - s.t)) * scale;
        return `<a href="#${escapeHtml(a.uuid)}"><rect class="compact-mark" x="${x.toFixed(1)}" y="0" width="3" height="32"><title>compaction · ${time.format(a.t)}</title></rect></a>`;
      }),
  );
  return `<svg class="timeline" viewBox="0 0 ${WIDTH + 3} 32" preserveAspectRatio="none" role="img" aria-label="timeline: ${list.length} segments">${bars.join('')}${marks.join('')}</svg>`;
}
