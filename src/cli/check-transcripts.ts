import { readEdges } from '../discover/read-edges.ts';
import { plural } from '../text/format-count.ts';
import { checkFiles, UserError } from './cli-io.ts';

/**
 * Checks files a command was given as transcripts before it reads them (`romp usage`, `cache`, `resume-check`,
 * `watch`, `register`, `resume`: the commands whose readers skip what is not a transcript line, and so would
 * print an empty report for `/etc/services` or a binary): each is a readable regular file (`checkFiles`), and is
 * empty (a session Claude Code has not written to yet, or blank lines only) or holds a transcript line (a JSON
 * object with a string `type`) among the complete lines of its first 64 KiB.
 * @param files the files
 * @throws UserError `FILE: not a Claude Code transcript (none of its first N lines is a transcript line; …)` (`its
 *   one line is not` for one), or
 * `checkFiles`'s
 */
export async function checkTranscripts(files: readonly string[]): Promise<void> {
  await checkFiles([...files]);
  for (const file of files) {
    const lines = (await readEdges(file, HEAD_BYTES, 0)).head.filter((line) => line.trim() !== '');
    if (lines.length > 0 && !lines.some(isTranscriptLine))
      throw new UserError(
        `${file}: not a Claude Code transcript (${lines.length === 1 ? 'its one line is not' : `none of its first ${plural(lines.length, 'line')} is`} a transcript line; romp doctor ${file} says why)`,
      );
  }
}

const HEAD_BYTES = 64 * 1024;

function isTranscriptLine(line: string): boolean {
  try {
    const value = JSON.parse(line) as unknown;
    return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
  } catch {
    return false;
  }
}
