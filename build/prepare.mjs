// `npm install`'s `prepare` (and `npx romp` inside the checkout, which installs the folder into npx's cache
// and runs this again): builds the library and the bundled command line unless they are newer than every
// source. tsc --noCheck emits JavaScript and types without the type check (`npm test` checks); then
// build/bundle-cli.ts writes the bundled command line, its code cache (written last) and dist/src/cli/romp.cjs.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import process from 'node:process';
import { fileURLToPath, URL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const built = join(root, 'dist', 'src', 'cli', 'cli-bundle.cache');
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');

/** The newest modification time (ms) of a file or of every file below a folder. */
function newest(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newest(join(path, name))));
}

const sources = ['src', 'build', 'package.json', 'tsconfig.json', 'tsconfig.src.json'].map((p) => join(root, p));
if (existsSync(built) && statSync(built).mtimeMs >= Math.max(...sources.map(newest))) {
  process.stdout.write('romp: dist/ is newer than its sources, not rebuilt\n');
} else if (!existsSync(tsc)) {
  // `npm ci --omit=dev` in a checkout: nothing to build with; a published package ships dist/ built
  process.stdout.write('romp: typescript is not installed (npm ci --omit=dev?): dist/ not built\n');
} else {
  execFileSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.src.json'), '--noCheck'], { stdio: 'inherit' });
  execFileSync(process.execPath, [join(root, 'dist', 'build', 'bundle-cli.js')], { stdio: 'inherit' });
}
