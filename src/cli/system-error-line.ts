/**
 * The one line to print for an error of the system rather than of romp (it carries an errno code:
 * `EACCES` on a read-only romp home, `ENOSPC` on a full disk, `EISDIR`, `ENOTDIR`, …), its control
 * characters escaped; also Node's own file-system errors (`ERR_FS_EISDIR`: `rmSync` given a folder where romp's
 * index should be, `ERR_FS_FILE_TOO_LARGE`, `ERR_FS_CP_*`); `undefined` for any other error (a bug: its stack trace
 * is worth seeing).
 * @param error what a command threw
 * @returns Node's message (`EACCES: permission denied, mkdir '/x/.romp/sessions'`) on one line, or undefined
 */
export function systemErrorLine(error: unknown): string | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (!(error instanceof Error) || typeof code !== 'string' || !/^(?:E[A-Z0-9]+|ERR_FS_[A-Z0-9_]+)$/.test(code))
    return undefined;
  return error.message.replace(/[\u0000-\u001f\u007f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
