/** Columns a session's title or first prompt keeps at most on a line, even in a pipe (`romp ls`, `romp search`): a
 * first prompt can be megabytes of pasted text (`--json` keeps it whole). */
export const TITLE_WIDTH = 200;

/**
 * What names a session on a line: its title, else its first prompt (its first 800 characters), every run of white
 * space one space, none at either end: what `romp ls` shows of an untitled session, and `romp search` of a hit's.
 * @param title the session's title (`""` without one)
 * @param firstPrompt its first prompt (`""` without one)
 * @returns the text, not yet made safe nor cut to a width
 */
export function titleText(title: string, firstPrompt: string): string {
  return (title || firstPrompt)
    .slice(0, TITLE_WIDTH * 4)
    .replace(/\s+/g, ' ')
    .trim();
}
