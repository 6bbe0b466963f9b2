import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * romp's home folder (docs/romp-home.md): the given one, else `$ROMP_HOME`, else `~/.romp`.
 * @param given an explicit folder (`--romp-home`)
 * @returns the folder's path
 */
export function rompHome(given?: string): string {
  return given ?? process.env['ROMP_HOME'] ?? join(homedir(), '.romp');
}
