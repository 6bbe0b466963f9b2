/**
 * Golden pages of `romp html`, one per thing it shows (`UPDATE=1 npm test` rewrites them), each with
 * the tokens that only that feature can put there: fixture text inside the markup the feature makes.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { test } from 'node:test';
import { buildHtmlPage } from '../../src/html/build-html-page.ts';
import { timeFormat } from '../../src/cli/format-time.ts';
import { FEATURES } from './fixtures.ts';

const GOLDEN = new URL('../../../tests/html/golden/', import.meta.url);

/** What each feature's page must hold. */
const TOKENS: Record<string, string[]> = {
  text: [
    '<div class="prompt">fix the parser</div>',
    '<div class="md"><p>Plain words here.</p>',
    '<span class="badge author-human">human</span>',
    '<span class="outcome outcome-completed">completed</span>',
  ],
  markdown: [
    '<h2>Plan</h2>',
    '<strong>bold move</strong>',
    '<code>inline</code>',
    '<span class="hljs-keyword">const</span> <span class="hljs-attr">answer</span>',
    '<a href="https://example.com/docs" rel="noopener noreferrer nofollow">docs</a>',
    '[trap](javascript:alert(1))',
    '&lt;b&gt;raw&lt;/b&gt;',
  ],
  tools: [
    '<summary>4 tool calls · Bash, Read, Grep, mcp__fs__list</summary>',
    '<span class="chip">Bash: npm test</span>',
    '<span class="chip">Read: src/a.ts:10-19</span>',
    '<details class="tool is-error" data-tool="Grep"><summary><span class="chip">Grep: &quot;TODO&quot; in src</span><span class="state error">error</span>',
    '<div class="tool-result" id="r1"><pre class="out">all 12 tests pass</pre>',
    '<span class="chip">mcp__fs__list: /tmp/zone</span>',
    'data-tools="Bash Read Grep mcp__fs__list" data-error="1"',
  ],
  diff: [
    '<span class="chip">Edit: src/x.ts +2 −2</span>',
    '<tr class="del"><td class="sign">-</td><td>beta</td></tr><tr class="add"><td class="sign">+</td><td>gamma</td></tr>',
    '<tr class="hunk"><td colspan="2">@@ -7,2 +7,2 @@</td></tr><tr class="ctx"><td class="sign"> </td><td>kept-by-claude</td></tr>',
    '<td>from-claude-code</td>',
  ],
  thinking: [
    '<details class="thinking"><summary>thinking · 16 characters</summary><div class="md"><p>pondering deeply</p>',
    'thinking: signature only (the text is not in the transcript)',
  ],
  image: [
    '<img class="image" alt="image from the transcript" src="data:image/png;base64,iVBORw0KGgo',
    '[image not shown: image/svg+xml]',
    '<div class="prompt">what is this\n[image]\n[image]</div>',
  ],
  subagent: [
    '<span class="chip">Task: count files (general-purpose)</span><span class="state">subagent</span>',
    '<p class="sub-head">subagent · claude-haiku-4-5 · 1 turn · $',
    '<p>sub says three</p>',
  ],
  compaction: [
    '<div class="compaction" id="b1"><span>compacted · manual · 48.2k tokens before',
    '<header class="turn-head pre-context" id="u1">',
    '<div class="atom a-assistant pre-context" id="a1">',
    '<label class="switch-label" for="view-context">',
    '<summary><span class="badge author-system">system</span> This session is being continued',
  ],
  rewind: [
    '<p class="branch-link"><a href="#u2">↳ rewound branch: first try (2 lines)</a></p>',
    '<section class="branch" id="u2"><h3>rewound branch · 2 lines · forks from <a href="#a1">this line</a></h3>',
    '<p>Abandoned answer.</p>',
  ],
  postal: ['<span class="badge author-peer">peer ?</span>', '<div class="prompt">the build is green</div>'],
};

for (const [name, write] of Object.entries(FEATURES)) {
  test(`romp html golden: ${name}`, async () => {
    const { html } = await buildHtmlPage(write(), { time: timeFormat('UTC') });
    const main = html.slice(html.indexOf('<main>'), html.indexOf('</main>') + '</main>'.length);
    for (const token of TOKENS[name] ?? []) assert.ok(html.includes(token), `${name}: missing ${token}`);
    const file = new URL(`${name}.html`, GOLDEN);
    // ids, times and the temp paths of the fixtures are the same at every run: the page is deterministic
    if (process.env['UPDATE'] === '1' || !existsSync(file)) writeFileSync(file, `${main}\n`);
    assert.equal(
      `${main}\n`,
      readFileSync(file, 'utf8'),
      `${name}: differs from tests/html/golden/${name}.html (UPDATE=1 to refresh)`,
    );
  });
}

test('romp html: the page is whole and self-contained', async () => {
  const write = FEATURES['compaction'] as () => string[];
  const { html } = await buildHtmlPage(write());
  assert.match(html, /^<!doctype html>/);
  assert.match(
    html,
    /<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;; script-src &#39;sha256-[A-Za-z0-9+/=]{44}&#39;; style-src &#39;sha256-[A-Za-z0-9+/=]{44}&#39;; img-src data:; connect-src &#39;none&#39;/,
  );
  assert.doesNotMatch(html, /\s(src|href)="(?!#|data:image\/|https?:)/);
  assert.doesNotMatch(html, /<link|@import|url\(/);
});
