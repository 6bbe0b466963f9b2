/**
 * The XSS corpus of `romp html`: a session whose every field holds an attack renders as inert text.
 * (The browser test runs the same page and checks that nothing ran.)
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildHtmlPage } from '../../src/html/build-html-page.ts';
import { embedJson } from '../../src/html/embed-json.ts';
import { escapeHtml } from '../../src/html/escape-html.ts';
import { xssSession } from './fixtures.ts';

test('romp html: no payload of the XSS corpus becomes markup', async () => {
  const { html } = await buildHtmlPage([xssSession()]);
  // exactly the page's own two script elements: the JSON data and the hashed script
  assert.deepEqual(html.match(/<script[^>]*>/g), ['<script type="application/json" id="romp-data">', '<script>']);
  assert.equal(html.match(/<\/script/g)?.length, 2);
  // every tag (outside the page's own style and script) is well formed, its values double-quoted and
  // free of quotes, and none has an event handler, a javascript: link or an SVG image
  const body = html.replace(/<(style|script)([^>]*)>[^]*?<\/\1>/g, '<$1$2></$1>');
  const attributes: string[] = [];
  for (const m of body.matchAll(/<(?=[a-z!/])/gi)) {
    const tag = /<(?:!doctype html|\/[a-z0-9]+|[a-z][a-z0-9]*((?:\s+[a-z-]+(?:="[^"<>]*")?)*))\s*>/iy;
    tag.lastIndex = m.index;
    const found = tag.exec(body);
    assert.ok(found !== null, `malformed tag at ${JSON.stringify(body.slice(m.index, m.index + 80))}`);
    for (const a of (found[1] ?? '').matchAll(/([a-z-]+)(?:="([^"]*)")?/gi)) attributes.push(`${a[1]}=${a[2] ?? ''}`);
  }
  assert.ok(attributes.length > 50);
  assert.deepEqual(
    attributes.filter((a) => /^on/i.test(a) || /^(href|src)=\s*(javascript|data:image\/svg)/i.test(a)),
    [],
  );
  // the only <svg> and <img> are the page's own (the timeline; no image in this corpus is raster)
  assert.equal(html.match(/<svg/g)?.length, 1);
  assert.equal(html.match(/<img/g), null);
  // the payloads are there, as text
  assert.ok(html.includes('&lt;/script&gt;&lt;script&gt;window.__xss=1&lt;/script&gt;'));
  assert.ok(html.includes('<span class="chip">Bash&quot;&gt;&lt;img src=x onerror=window.__xss=1&gt;: '));
  assert.ok(html.includes('[click](javascript:window.__xss=1)'));
  assert.ok(html.includes('<title>&lt;/title&gt;&lt;script&gt;window.__xss=1&lt;/script&gt; · romp</title>'));
  assert.ok(html.includes('[image not shown: image/svg+xml]'));
  // comments only where the page writes none: no transcript text opens one
  assert.doesNotMatch(html, /<!--/);
});

test('embedJson: no </script, <!-- or line separator survives, and the value reads back', () => {
  const value = { a: '</script><!-- \u2028\u2029 & >' };
  const json = embedJson(value);
  assert.doesNotMatch(json, /<|>|&|\u2028|\u2029/);
  assert.equal(json, '{"a":"\\u003c/script\\u003e\\u003c!-- \\u2028\\u2029 \\u0026 \\u003e"}');
  assert.deepEqual(JSON.parse(json), value);
});

test('escapeHtml: the five characters and NUL', () => {
  assert.equal(
    escapeHtml(`<a href="x" title='y'>&\0</a>`),
    '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;\uFFFD&lt;/a&gt;',
  );
});
