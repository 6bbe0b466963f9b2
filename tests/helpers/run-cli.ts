import { cli } from '../../src/cli/cli.ts';

/**
 * Runs the CLI in-process with captured output.
 * @param argv the arguments after `romp`
 * @param columns the width stdout reports, as a terminal's
 * @returns the exit code and what went to stdout and stderr
 */
export async function runCli(argv: string[], columns?: number): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const stdout = { write: (s: string) => (out += s), ...(columns === undefined ? {} : { columns }) };
  const code = await cli(argv, { stdout, stderr: { write: (s: string) => (err += s) } });
  return { code, out, err };
}
