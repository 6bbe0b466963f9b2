/**
 * The XSS corpus of `romp html`: a session whose every field holds an attack renders as inert text.
 * (The browser test runs the same page and checks that nothing ran.)
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildHtmlPage } from '../../src/html/build-html-page.ts';
import { embedJson } from '../../src/html/embed-json.ts';
import { escapeHtml } from '../../src/html/escape-html.ts';
import { assistant, SID, text, thinking, toolResult, toolUse, user, writeJsonl } from '../helpers/transcript.ts';
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

test('escapeHtml: the five characters, and the controls escaped as on the terminal', () => {
  assert.equal(
    escapeHtml(`<a href="x" title='y'>&\0</a>`),
    '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;\\x00&lt;/a&gt;',
  );
  assert.equal(escapeHtml('a\u202eb\x1bc\u009bd\u200be\tf\r\ng'), 'a\\u202eb\\x1bc\\u009bd\\u200be\tf\r\ng');
});

test('romp html: a bidi override or an ESC in any text a page shows is shown escaped, never applied', async () => {
  const evil = 'ab\u202edc\x1b[31m\u2066x';
  const path = writeJsonl([
    { type: 'custom-title', customTitle: `T${evil}`, sessionId: SID },
    user('u1', null, `P${evil}`, 0),
    assistant('a0', 'u1', thinking(`K${evil}`), 1, { mid: 'm1' }),
    assistant('a1', 'a0', text(`M${evil} \`C${evil}\``), 1, { mid: 'm1' }),
    assistant('a2', 'a1', toolUse('t1', 'Bash', { command: `echo B${evil}` }), 1, { mid: 'm1', stop: 'tool_use' }),
    user('r1', 'a2', [toolResult('t1', `R${evil}`)], 2),
  ]);
  const { html } = await buildHtmlPage([path]);
  const shown = html.replace(/<(style|script)([^>]*)>[^]*?<\/\1>/g, '');
  assert.doesNotMatch(shown, /[\u0000-\u0008\u001b\u202a-\u202e\u2066-\u2069]/);
  const escaped = 'ab\\u202edc\\x1b[31m\\u2066x';
  for (const where of ['T', 'P', 'M', 'C', 'K', 'R'])
    assert.ok(shown.includes(`${where}${escaped}`), `${where}: ${where}${escaped}`);
  assert.ok(shown.includes(`<title>T${escaped} · romp</title>`));
  assert.ok(/B<\/span>ab\\u202edc\\x1b|Bab\\u202edc\\x1b/.test(shown.replace(/<span class="hljs-[a-z]+">/g, '')));
});
