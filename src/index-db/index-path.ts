import { join } from 'node:path';

/**
 * The index's path in romp's home: `<home>/index.db`. A module of its own, so that a command looking
 * for the index (`readIndex`) loads nothing of what builds it (issue 16: start-up).
 * @param home romp's home folder (`rompHome()`)
 * @returns the path
 */
export function indexPath(home: string): string {
  return join(home, 'index.db');
}
