/**
 * Temporary folders for tests that leave nothing behind: each one made here is removed when the test
 * process exits (node --test runs each test file in a process of its own), passed or failed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made = new Set<string>();
let hooked = false;

/**
 * A fresh folder in the system's temp folder, removed when the process exits.
 * @param prefix the start of its name, e.g. `romp-test-`
 * @returns its path
 */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.add(dir);
  if (!hooked) {
    hooked = true;
    process.on('exit', () => {
      for (const d of made) rmSync(d, { recursive: true, force: true });
    });
  }
  return dir;
}
