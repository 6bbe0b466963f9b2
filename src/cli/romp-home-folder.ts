import { statSync } from 'node:fs';
import { rompHome } from '../romp-home/romp-home.ts';
import { UserError } from './cli-io.ts';

/**
 * romp's home folder as every command takes it (`rompHome`: `--romp-home`, else `$ROMP_HOME`, else `~/.romp`),
 * refused when something that is not a folder is there: a file named as the home is a mistake to say, not
 * an empty registry or an index that cannot be written (ENOTDIR). A home that does not exist yet is fine:
 * the first write makes it.
 * @param given `--romp-home`, when given
 * @returns the folder's path
 * @throws UserError (`romp: …`, exit 2) when the path exists and is not a folder
 */
export function rompHomeFolder(given?: string): string {
  const home = rompHome(given);
  const stat = statSync(home, { throwIfNoEntry: false });
  if (stat !== undefined && !stat.isDirectory())
    throw new UserError(
      `romp's home ${home} is not a folder (set by ${given === undefined ? 'ROMP_HOME' : '--romp-home'})`,
    );
  return home;
}
