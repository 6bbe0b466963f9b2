/**
 * `npm run build`'s second step: the command line's common path as one ES module,
 * `dist/src/cli/romp.js` (package.json `bin`), bundled by esbuild from what tsc wrote. Loading ~30 small
 * modules costs Node's ESM loader more CPU than running `romp show` on a small file; one file does not.
 *
 * What stays outside the bundle, loaded from tsc's `dist/` when a command needs it:
 * - every `run-*.js` command module but `run-show.js` (`romp usage`, `watch`, `index`, … are imported
 *   when they run, as `cli.ts` does), with what they import;
 * - `cli-io.js`: its `UserError` must be one class for the bundle and the command modules alike
 *   (`cli` tells a usage error from a crash with `instanceof`);
 * - a module outside `dist/src/cli/` that reads `import.meta.url` (`count-usage.js` finds its worker
 *   script beside itself): in the bundle that URL would be the bundle's;
 * - every package but commander (plain JS, always used): libsql, markdown-it, highlight.js, … load only
 *   where used.
 * The library's `dist/` stays as tsc builds it; `dist/src/cli/bin.js` is the same program unbundled.
 */
import { build, type Plugin } from 'esbuild';
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLI = join(ROOT, 'dist', 'src', 'cli');
const BUNDLED_PACKAGES = new Set(['commander']);

/** Whether an absolute module path is loaded from `dist/` instead of being bundled (see above). */
function outside(path: string): boolean {
  if (dirname(path) === CLI) return /^(run-(?!show\.js$).*|cli-io\.js)$/.test(path.slice(CLI.length + 1));
  const source = readFileSync(path, 'utf8');
  // `new URL('../usage/x.js', import.meta.url)` names the same file from dist/src/usage/ and dist/src/cli/
  const urls = [...source.matchAll(/import\.meta\.url/g)].length;
  const portable = [...source.matchAll(/new URL\((['"])\.\.\/[\w-]+\/[^'"]*\1, import\.meta\.url\)/g)].length;
  return urls > portable;
}

const split: Plugin = {
  name: 'romp-split',
  setup(b) {
    b.onResolve({ filter: /.*/ }, (args) => {
      if (args.kind === 'entry-point') return undefined;
      if (!args.path.startsWith('.')) {
        const name = args.path.startsWith('@') ? args.path.split('/').slice(0, 2).join('/') : args.path.split('/')[0];
        return BUNDLED_PACKAGES.has(name ?? '') || args.path.startsWith('node:')
          ? undefined
          : { path: args.path, external: true };
      }
      if (!args.importer.startsWith(join(ROOT, 'dist') + sep)) return undefined;
      const path = resolve(args.resolveDir, args.path);
      if (!outside(path)) return undefined;
      const from = relative(CLI, path).split(sep).join('/');
      return { path: from.startsWith('.') ? from : `./${from}`, external: true };
    });
  },
};

await build({
  entryPoints: [join(CLI, 'bin.js')],
  outfile: join(CLI, 'romp.js'),
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  plugins: [split],
  // commander is CommonJS: its require() of Node's modules needs a real require in an ES module
  banner: {
    js: "import { createRequire as __rompRequire } from 'node:module';\nconst require = __rompRequire(import.meta.url);",
  },
  legalComments: 'none',
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: 'warning',
});
