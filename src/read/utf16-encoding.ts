/**
 * The UTF-16 encoding a file's first two bytes say it is in, else `undefined`: Claude Code writes UTF-8,
 * but a copy saved through Windows PowerShell's `>` is UTF-16LE. Told by a byte-order mark (`FF FE`,
 * `FE FF`), or, without one, by a first `{` written as two bytes (`7B 00`, `00 7B`): a transcript starts
 * with an object. The one rule of the read stage (`RecordDecoder`, `UTF16_FILE`) and the usage reader.
 * @param first the file's first bytes (two are read)
 * @returns the encoding, as `TextDecoder` names it, and whether a byte-order mark told it
 */
export function utf16Encoding(first: Uint8Array): { encoding: 'utf-16le' | 'utf-16be'; bom: boolean } | undefined {
  const [a, b] = [first[0], first[1]];
  if (a === 0xff && b === 0xfe) return { encoding: 'utf-16le', bom: true };
  if (a === 0xfe && b === 0xff) return { encoding: 'utf-16be', bom: true };
  if (a === 0x7b && b === 0x00) return { encoding: 'utf-16le', bom: false };
  if (a === 0x00 && b === 0x7b) return { encoding: 'utf-16be', bom: false };
  return undefined;
}
