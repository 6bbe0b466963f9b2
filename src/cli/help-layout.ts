import { Help } from 'commander';
import { outputWidth, wrapLines, wrapWords } from './fit-width.ts';

/** Below this many columns for a description, help puts it under its term instead of beside it; from it on,
 * commander wraps it there (its `minWidthToWrap`, 40 by default, kept it whole below 40). */
export const DESCRIPTION_MIN = 20;

/**
 * The width a help is laid out to (commander's `helpWidth`): one column short of the output's (`outputWidth`; 80 in a
 * pipe), as every line the CLI prints: commander fills its lines to the last column of its width, and a line of
 * exactly the terminal's width makes some terminals wrap (an empty line after it), others leave the cursor past it.
 * @param out the stream the help goes to
 * @returns the columns a help line may take
 */
export function helpWidth(out: { columns?: number | undefined }): number {
  return Math.max(1, (outputWidth(out) ?? 80) - 1);
}

/**
 * One item of a help list (a command, an option, an argument) as commander's `formatItem` lays it out, but
 * on a narrow terminal, where fewer than `DESCRIPTION_MIN` columns are left beside the widest term (the top
 * level's `register [options] <rompUuid> <files...>` takes 40), the description goes under its term,
 * indented six and wrapped between words (the term too, when wider than the line), instead of overflowing
 * whole (commander keeps it whole below its `minWidthToWrap`) or wrapping to a column a word wide.
 * @param this the help being formatted (its `helpWidth`: `getOutHelpWidth`)
 * @param term the command, option or argument as listed
 * @param termWidth the widest term of the list, in columns
 * @param description its description
 * @param helper the help (its `boxWrap`)
 * @returns the item's lines
 */
export function formatHelpItem(this: Help, term: string, termWidth: number, description: string, helper: Help): string {
  const width = this.helpWidth ?? 79;
  if (description === '' || width - termWidth - 4 >= DESCRIPTION_MIN)
    return Help.prototype.formatItem.call(this, term, termWidth, description, helper);
  const head = wrapWords(term, Math.max(DESCRIPTION_MIN, width - 3), Math.max(DESCRIPTION_MIN, width - 7));
  const below = wrapWords(description, Math.max(DESCRIPTION_MIN, width - 7));
  return [
    ...head.map((line, i) => `${i === 0 ? '  ' : '      '}${line}`),
    ...below.map((line) => `      ${line}`),
  ].join('\n');
}

/**
 * The usage line of a help (`romp usage [options] [report] [files...]`) wrapped between words to its width, after
 * the `Usage: ` commander puts before it, the continuations nine columns in (past `Usage: ` and two more); commander
 * itself prints the line whole, 49 columns for `romp usage`.
 * @param this the help being formatted (its `helpWidth`: `getOutHelpWidth`)
 * @param usage the command's usage, words separated by spaces
 * @returns the usage, its lines joined with `\n`
 */
export function styleHelpUsage(this: Help, usage: string): string {
  const room = (this.helpWidth ?? 79) - 'Usage: '.length;
  return wrapWords(usage, Math.max(DESCRIPTION_MIN, room), Math.max(DESCRIPTION_MIN, room - 2)).join('\n         ');
}

/**
 * The examples and notes printed after the top-level help, fitted to its width: each example's command and
 * what it does side by side when both fit (the commands padded to the widest), else the command (wrapped
 * between words, continued four columns in) and under it what it does, six columns in; the notes wrapped
 * as every prose line (`wrapLines`).
 * @param examples each example: the command line, and what it does ('' for none)
 * @param notes lines of prose after the examples
 * @param width the help's width (`getOutHelpWidth`)
 * @returns the text, starting with an empty line
 */
export function formatHelpTail(
  examples: ReadonlyArray<readonly [string, string]>,
  notes: readonly string[],
  width: number,
): string {
  const room = width - 1;
  const commandWidth = Math.max(...examples.map(([command]) => command.length));
  const beside = room - 2 - commandWidth - 2 >= 30;
  const lines = examples.flatMap(([command, does]) => {
    if (beside) {
      const [first = '', ...rest] = does === '' ? [''] : wrapWords(does, room - commandWidth - 4);
      const pad = ' '.repeat(commandWidth + 4);
      return [`  ${command.padEnd(commandWidth)}  ${first}`.trimEnd(), ...rest.map((line) => `${pad}${line}`)];
    }
    const head = wrapWords(command, Math.max(10, room - 2), Math.max(10, room - 6)).map(
      (line, i) => `${i === 0 ? '  ' : '      '}${line}`,
    );
    return does === '' ? head : [...head, ...wrapWords(does, Math.max(10, room - 6)).map((line) => `      ${line}`)];
  });
  return ['', 'Examples:', ...lines, '', ...wrapLines(notes, width)].join('\n');
}
