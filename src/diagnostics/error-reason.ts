/**
 * Why a file operation failed, in words a reader can act on and without the path: Node's message for a system
 * error is `CODE: description, syscall 'path'` (`ENOENT: no such file or directory, open '/x/a.jsonl'`), and every
 * message romp prints names the file already, first. A system error becomes `description (CODE)`: `no such file or
 * directory (ENOENT)`, `too many symbolic links encountered (ELOOP)`; any other error keeps its message.
 * @param error what a read, open or stat threw
 * @returns the reason, one line
 */
export function errorReason(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const { code, syscall } = error as NodeJS.ErrnoException;
  const message = error.message;
  if (typeof code !== 'string' || !message.startsWith(`${code}: `)) return message;
  const cut = typeof syscall === 'string' ? message.lastIndexOf(`, ${syscall}`) : -1;
  return `${message.slice(code.length + 2, cut > code.length ? cut : undefined)} (${code})`;
}
