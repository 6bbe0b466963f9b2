/**
 * Runs `work`, which may set or unset `COLUMNS` (how the width tests ask the CLI for a terminal width:
 * `outputWidth` reads it first), then puts back what `COLUMNS` was, whatever `work` did or threw.
 * @param work what to run
 * @returns what `work` returns
 */
export async function keepingColumns<T>(work: () => Promise<T>): Promise<T> {
  const saved = process.env['COLUMNS'];
  try {
    return await work();
  } finally {
    if (saved === undefined) delete process.env['COLUMNS'];
    else process.env['COLUMNS'] = saved;
  }
}
