import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import go from 'highlight.js/lib/languages/go';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import python from 'highlight.js/lib/languages/python';
import rust from 'highlight.js/lib/languages/rust';
import sql from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';
import MarkdownIt from 'markdown-it';
import { safeText } from '../cli/safe-text.ts';

for (const [name, language] of Object.entries({
  bash,
  css,
  diff,
  go,
  javascript,
  json,
  python,
  rust,
  sql,
  typescript,
  xml,
  yaml,
}))
  hljs.registerLanguage(name, language);
for (const [alias, name] of [
  ['sh', 'bash'],
  ['shell', 'bash'],
  ['js', 'javascript'],
  ['ts', 'typescript'],
  ['tsx', 'typescript'],
  ['jsx', 'javascript'],
  ['py', 'python'],
  ['html', 'xml'],
  ['yml', 'yaml'],
  ['rs', 'rust'],
] as const)
  hljs.registerAliases(alias, { languageName: name });

/** The link schemes a page may carry. */
const SAFE_LINK = /^(https?:\/\/|mailto:)/i;

/**
 * Code highlighted as the language named (highlight.js, only the languages registered here, never
 * auto-detected), its control and invisible characters shown escaped first (`safeText`, `keepLayout`, the rule
 * of `escapeHtml`); `undefined` for any other language, which the caller escapes as plain text.
 * @param code the code
 * @param language a fence's info word or a file extension (`ts`, `python`)
 * @returns highlight.js's HTML (escaped, `<span class="hljs-…">`), or `undefined`
 */
export function highlightCode(code: string, language: string): string | undefined {
  const name = language.toLowerCase();
  if (name === '' || hljs.getLanguage(name) === undefined) return undefined;
  return hljs.highlight(safeText(code, { keepLayout: true }), { language: name, ignoreIllegals: true }).value;
}

const md = new MarkdownIt({
  html: false,
  linkify: false,
  typographer: false,
  highlight: (code, info) => highlightCode(code, info.split(/\s/, 1)[0] ?? '') ?? '',
});
md.disable('image');
md.validateLink = (url: string): boolean => SAFE_LINK.test(url.trim());
md.renderer.rules['link_open'] = (tokens, index, options, _env, self) => {
  tokens[index]?.attrSet('rel', 'noopener noreferrer nofollow');
  return self.renderToken(tokens, index, options);
};

/**
 * Markdown (an assistant's text, a thinking block) as HTML: markdown-it with raw HTML off (`<b>` stays
 * text), images off, links only to `http(s)://` and `mailto:` (any other link stays literal text) with
 * `rel="noopener noreferrer nofollow"`, fenced code highlighted by {@link highlightCode}; control and invisible
 * characters shown escaped first, by the rule of `escapeHtml` (`safeText`, `keepLayout`).
 * @param text Markdown from a transcript
 * @returns HTML
 */
export function renderMarkdown(text: string): string {
  return md.render(safeText(text, { keepLayout: true }));
}
