import { notTranscript } from '../discover/not-transcript.ts';
import { checkFiles, UserError } from './cli-io.ts';

/**
 * Checks files a command was given as transcripts before it reads them (`romp usage`, `cache`, `resume-check`,
 * `watch`, `register`, `resume`: the commands whose readers skip what is not a transcript line, and so would
 * print an empty report for `/etc/services` or a binary): each is a readable regular file (`checkFiles`), and is
 * empty (a session Claude Code has not written to yet, or blank lines only) or holds a transcript line among the
 * complete lines of its first 64 KiB (`notTranscript`, as `romp ls` and `romp index` judge a file).
 * @param files the files
 * @throws UserError `FILE: not a Claude Code transcript (none of its first N lines is a transcript line; …)` (`its
 *   one line is not` for one), or `checkFiles`'s
 */
export async function checkTranscripts(files: readonly string[]): Promise<void> {
  await checkFiles([...files]);
  for (const file of files) {
    const reason = await notTranscript(file);
    if (reason !== undefined) throw new UserError(`${file}: ${reason}`);
  }
}
