/**
 * `romp export --format md` read back as GitHub reads it (markdown-it, raw HTML on): what the transcript holds
 * stays text, and the only elements are the ones the export writes itself.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import MarkdownIt from 'markdown-it';
import { literal } from '../../src/export/render-markdown-transcript.ts';
import { runCli } from '../helpers/run-cli.ts';
import { assistant, SID, thinking, toolResult, toolUse, user, writeJsonl } from '../helpers/transcript.ts';

const md = new MarkdownIt({ html: true });
type Token = ReturnType<typeof md.parse>[number];

/** The tokens of a Markdown text, inline children after their parent, in document order. */
function tokens(markdown: string): Token[] {
  return md.parse(markdown, {}).flatMap((t) => [t, ...(t.children ?? [])]);
}

/** The elements a Markdown text renders to, opening tags and empty ones (`code` of a fence, `br`), in order. */
const tags = (markdown: string): string[] =>
  tokens(markdown)
    .filter((t) => t.nesting !== -1 && t.tag !== '')
    .map((t) => t.tag);
const html = (markdown: string): string[] =>
  tokens(markdown)
    .filter((t) => t.type === 'html_block' || t.type === 'html_inline')
    .map((t) => t.content);
/** The text between the first opening of `tag` and its close, a line break as `\n`. */
function textIn(markdown: string, tag: string): string {
  const all = tokens(markdown);
  const from = all.findIndex((t) => t.tag === tag && t.nesting === 1);
  const to = all.findIndex((t, i) => i > from && t.tag === tag && t.nesting === -1);
  return all
    .slice(from, to)
    .filter((t) => t.type === 'text' || t.type === 'code_inline' || t.type === 'hardbreak' || t.type === 'softbreak')
    .map((t) => (t.type === 'hardbreak' || t.type === 'softbreak' ? '\n' : t.content))
    .join('');
}

const PROMPT = '# x\n```\n</details>\n<img src=https://example.com/a.png>';
const THINKING =
  'hmm</details>\n\n# Big\n\n<img src=https://example.com/b.png>\n- item\n1. one\n    indented `code`\n$x$ &amp; [a](b) *e* \\';

test('romp export --format md: prompts, thinking and labels stay text; no element comes from the transcript', async () => {
  const path = writeJsonl([
    { type: 'custom-title', customTitle: '*t* <b>x</b>', sessionId: SID },
    user('u1', null, PROMPT, 0),
    assistant('a1', 'u1', thinking(THINKING), 1, { mid: 'm1' }),
    assistant('a2', 'a1', toolUse('t1', 'Bash', { command: "echo '**bold** label'" }), 2, {
      mid: 'm1',
      stop: 'tool_use',
    }),
    user('r1', 'a2', [toolResult('t1', '</details>')], 3),
    assistant('a3', 'r1', { type: 'text', text: 'Done.' }, 4, { mid: 'm2', stop: 'end_turn' }),
  ]);
  const { code, out } = await runCli(['export', path, '--timezone', 'UTC']);
  assert.equal(code, 0);
  // the one collapse the export writes, opened and closed once; nothing else is raw HTML
  assert.deepEqual(html(out), ['<details><summary>thinking</summary>\n', '</details>\n']);
  assert.deepEqual(tags(out), [
    'h1', // the title
    'p', // id, folder, times, cost
    'h2', // the turn
    'blockquote', // the prompt as typed
    'code',
    'p', // the thinking's three paragraphs, inside the collapse, each of its lines kept
    'p',
    'p',
    'br',
    'br',
    'br',
    'br',
    'p', // the call's label, bold
    'strong',
    'code', // its input and result, fenced
    'code',
    'p', // the answer
  ]);
  assert.equal(textIn(out, 'h1'), '*t* <b>x</b>');
  assert.equal(textIn(out, 'strong'), "Bash: echo '**bold** label'");
  const fences = tokens(out).filter((t) => t.type === 'fence');
  assert.deepEqual(
    fences.map((f) => f.content),
    [`${PROMPT}\n`, "echo '**bold** label'\n", '</details>\n'],
  );
  const shown = md.render(out);
  assert.equal(shown.split('<img').length, 1);
  assert.ok(shown.includes('&lt;img src=https://example.com/b.png&gt;'));
});

test('literal: paragraphs keep each line and their text; inline escapes what opens markup', () => {
  const paragraphs = literal(THINKING, 'paragraphs');
  assert.deepEqual(tags(paragraphs), ['p', 'p', 'p', 'br', 'br', 'br', 'br']);
  assert.equal(
    md
      .parse(paragraphs, {})
      .flatMap((t) => t.children ?? [])
      .map((t) => (t.type === 'hardbreak' ? '\n' : t.content))
      .join(''),
    // paragraphs joined without their blank lines; an indent is kept as no-break spaces
    'hmm</details># Big<img src=https://example.com/b.png>\n- item\n1. one\n\u00a0\u00a0\u00a0\u00a0indented `code`\n$x$ &amp; [a](b) *e* \\',
  );
  assert.equal(literal('a\n`b`', 'inline'), 'a \\`b\\`');
  assert.equal(literal('x ``` y', 'fence', 'sh'), '````sh\nx ``` y\n````');
});

const HOSTILE =
  '## Plan\n\n- step `Map<K, V>`\n\n<!-- hide\n\n<img src=https://example.com/c.png> ![x](https://example.com/d.png)\n' +
  '</details> \\<kept\n\n```html\n<b>in a fence</b>\n```\n\n~~~\nnever closed <i>';

test('romp export --format md: assistant text keeps its Markdown; raw HTML, comments and images stay text', async () => {
  const path = writeJsonl([
    user('u1', null, 'go', 0),
    assistant('a1', 'u1', { type: 'text', text: HOSTILE }, 1, { mid: 'm1', stop: 'end_turn' }),
    user('u2', 'a1', 'after', 2),
  ]);
  const { code, out } = await runCli(['export', path, '--timezone', 'UTC']);
  assert.equal(code, 0);
  assert.deepEqual(html(out), []);
  assert.deepEqual(tags(out), [
    'h1',
    'p',
    'h2', // turn 1
    'blockquote',
    'code',
    'h2', // the answer's heading, list and code span kept
    'ul',
    'li',
    'p', // the item's (tight: not shown)
    'code',
    'p', // the comment, as text
    'p', // the tag, the image (a link now) and the close, as text, over two lines
    'a',
    'br',
    'code', // the html fence, as written
    'code', // the open fence, closed before turn 2
    'h2', // turn 2 is still a heading
    'blockquote',
    'code',
  ]);
  const fences = tokens(out).filter((t) => t.type === 'fence');
  assert.deepEqual(
    fences.map((f) => f.content),
    ['go\n', '<b>in a fence</b>\n', 'never closed <i>\n', 'after\n'],
  );
  // a text with raw HTML is escaped everywhere outside fences: a code span then shows its backslash
  assert.equal(textIn(out, 'ul'), 'step Map\\<K, V>');
  const shown = md.render(out);
  assert.ok(shown.includes('<p>&lt;!-- hide</p>'));
  assert.ok(shown.includes('&lt;img src=https://example.com/c.png&gt; !<a href="https://example.com/d.png">x</a>'));
  assert.ok(shown.includes('&lt;/details&gt; &lt;kept'));
});

test('literal markdown: text without raw HTML stays as written', () => {
  const text = '# T\n\n- a `<b>` b\n\n```\n<b>\n```';
  assert.equal(literal(text, 'markdown'), text);
  assert.equal(literal('a <b>x</b> \\\\<i>', 'markdown'), 'a \\<b>x\\</b> \\\\\\<i>');
});
