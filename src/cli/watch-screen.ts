import { basename } from 'node:path';
import type { Session } from '../model/types.ts';
import type { CliOutput } from './cli-io.ts';
import { formatTurn, turnHead } from './format-outline.ts';
import type { TimeFormat } from './format-time.ts';
import { safeText } from './safe-text.ts';
import { plural } from '../text/format-count.ts';
import { fitLines, fitWidth, outputWidth } from './fit-width.ts';

/** What the screen is given at each change of the watched session. */
export interface ScreenUpdate {
  session: Session;
  /** Ids of the turns new or changed (removed ones too, as `SessionWatcher` gives them). */
  changed: string[];
  /** Ids of the turns gone (a rewind). */
  removed: string[];
  /** The cache-clock line (`formatCacheClock`), if the session has one. */
  clock?: string;
}

/** Turn marks kept in the redrawn block (the newest last). */
const MARKS_SHOWN = 3;

/**
 * What `romp watch` prints of a session being written. On a terminal (`isTTY`), one block redrawn in
 * place at each change: a title line, a line per turn (head and preview, cut to the width; the open turn
 * updating), the last marks (a rewind, a compaction, a new session followed) and the cache clock; the
 * cursor goes back to the block's first line (`ESC[nF`) and the block is erased (`ESC[J`) before it is
 * written again. The block keeps below the terminal's height (the oldest turns summed up in one line),
 * so the cursor can always reach its top. Elsewhere (a pipe, a file), plain appended lines: the outline
 * lines of each turn that changed (`formatTurn`), the marks, the cache clock. Every transcript text is
 * `safeText`; only the cursor sequences are romp's own.
 */
export class WatchScreen {
  readonly #out: CliOutput;
  readonly #time: TimeFormat;
  readonly #now: () => number;
  readonly #marks: string[] = [];
  /** Each turn's number and compactions as last shown. */
  #seen = new Map<string, { n: number; compactions: number }>();
  #drawn = 0;
  /** The width the block on screen was drawn for, and the update it showed (drawn again on a resize). */
  #drawnWidth = 0;
  #last: ScreenUpdate | undefined;
  #file = '';

  /**
   * @param out stdout (its `isTTY`, `columns`, `rows` are read at each draw)
   * @param time how times are printed
   * @param now the clock of the marks (tests give one)
   */
  constructor(out: CliOutput, time: TimeFormat, now: () => number = Date.now) {
    this.#out = out;
    this.#time = time;
    this.#now = now;
  }

  /**
   * Starts on another session's file: the next block is drawn below the last one, which stays.
   * @param file the transcript followed now (its name is in the title line)
   * @param note a mark to show first (`following new session …`), if any
   */
  follow(file: string, note?: string): void {
    this.#drawn = 0;
    this.#seen = new Map();
    this.#marks.length = 0;
    this.#file = file;
    if (note !== undefined) this.#mark(note);
  }

  /**
   * Shows a change: marks a rewind (turns removed) and a compaction (a turn with more `compact_boundary`
   * atoms than before), then redraws the block (terminal) or appends the changed turns' lines.
   * @param update the session, the changed and removed ids, the cache-clock line
   * @param first whether this is the session's first state (everything is shown, nothing marked)
   */
  show(update: ScreenUpdate, first: boolean): void {
    const { session, removed } = update;
    const gone = removed.map((id) => this.#seen.get(id)?.n).filter((n): n is number => n !== undefined);
    if (gone.length > 0)
      this.#mark(`rewind: ${gone.length === 1 ? 'turn' : 'turns'} ${gone.map((n) => `#${n}`).join(', ')} dropped`);
    const seen = new Map<string, { n: number; compactions: number }>();
    session.turns.forEach((turn, i) => {
      const compactions = turn.atoms.filter((a) => a.subtype === 'compact_boundary').length;
      if (!first && compactions > (this.#seen.get(turn.id)?.compactions ?? 0))
        this.#mark(`compaction in turn #${i + 1}`);
      seen.set(turn.id, { n: i + 1, compactions });
    });
    this.#seen = seen;
    if (this.#out.isTTY === true) this.#redraw(update);
    else this.#append(update, first);
  }

  /**
   * The terminal was resized: the block is drawn again, cut to the new width. Narrower, the terminal
   * may have wrapped the old lines (so the block's height on screen is unknown): the screen is cleared
   * and the block drawn at its top. Not on a terminal, nothing happens.
   */
  resize(): void {
    if (this.#out.isTTY !== true || this.#last === undefined) return;
    if (this.#width() < this.#drawnWidth) {
      this.#out.styled?.('\x1b[H\x1b[2J');
      this.#drawn = 0;
    }
    this.#redraw(this.#last);
  }

  #width(): number {
    return Math.max(20, outputWidth(this.#out) ?? 80);
  }

  #mark(text: string): void {
    const line = `${this.#out.isTTY === true ? '» ' : 'romp: '}${this.#time.format(this.#now())}  ${text}`;
    this.#marks.push(line);
    if (this.#marks.length > MARKS_SHOWN) this.#marks.shift();
    if (this.#out.isTTY !== true) this.#out.write(`${line}\n`);
  }

  #append({ session, changed, clock }: ScreenUpdate, first: boolean): void {
    const lines: string[] = [];
    session.turns.forEach((turn, i) => {
      if (first || changed.includes(turn.id)) lines.push(...formatTurn(turn, i + 1, this.#time));
    });
    if (clock !== undefined) lines.push(clock);
    if (lines.length > 0) this.#out.write(`${fitLines(lines, outputWidth(this.#out)).join('\n')}\n`);
  }

  #redraw(update: ScreenUpdate): void {
    const { session, clock } = update;
    const width = this.#width();
    const height = Math.max(6, this.#out.rows ?? 24);
    const title = `${safeText(session.name || '(untitled)')}  ${safeText(basename(this.#file))}  ${plural(session.turns.length, 'turn')}  times in ${this.#time.zone}`;
    const turns = session.turns.map((turn, i) => {
      const { head, preview, compactions } = turnHead(turn, i + 1, this.#time);
      return [head, compactions > 0 ? `compacted ${compactions}×` : '', preview].filter((p) => p !== '').join('  ');
    });
    const tail = [...this.#marks, ...(clock === undefined ? [] : [safeText(clock)])];
    const room = height - 1 - 1 - tail.length;
    const shown =
      turns.length > room
        ? [`… ${plural(turns.length - room + 1, 'earlier turn')}`, ...turns.slice(turns.length - room + 1)]
        : turns;
    // a line as wide as the terminal would wrap at its last column on some terminals: one column spare
    const block = [title, ...shown, ...tail].map((line) => fitWidth(line, width - 1));
    const back = this.#drawn > 0 ? `\x1b[${this.#drawn}F\x1b[J` : '';
    // every part above is safeText'd or romp's own: only the cursor sequences are raw
    this.#out.styled?.(`${back}${block.join('\n')}\n`);
    this.#drawn = block.length;
    this.#drawnWidth = width;
    this.#last = update;
  }
}
