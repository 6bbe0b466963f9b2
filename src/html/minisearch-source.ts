import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * The browser build of MiniSearch (the `minisearch` package's UMD file, which defines
 * `window.MiniSearch`), read once from the installed package so that each page carries it inline
 * (issue 18: "in-page search (minisearch or similar) … bundled into the page at build time"); its
 * source-map comment is dropped (it would name a file the page does not have).
 * @returns the script's text
 * @throws Error if the text could end the page's `<script>` element (`</script`, `<!--`): then it cannot be inlined
 */
export function minisearchSource(): string {
  const main = createRequire(import.meta.url).resolve('minisearch'); // …/minisearch/dist/cjs/index.cjs
  const text = readFileSync(join(dirname(main), '..', 'umd', 'index.js'), 'utf8').replace(
    /\n\/\/# sourceMappingURL=\S*\s*$/,
    '\n',
  );
  if (/<\/script|<!--/i.test(text))
    throw new Error('minisearch: its browser build cannot be inlined in a <script> element');
  return text;
}
