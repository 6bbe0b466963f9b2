import type { SecretFinder } from './redact-session.ts';
import type { Finding } from './structural-rules.ts';

/** Texts go to secretlint joined by this (no secret holds a NUL), so a session costs one call. */
const JOIN = '\n\u0000\n';
const PRESET = '@secretlint/secretlint-rule-preset-recommend';

/**
 * A `SecretFinder` running secretlint 11's recommended preset (`@secretlint/secretlint-rule-preset-recommend`:
 * AWS, GCP, Azure, GitHub, npm, Slack, OpenAI, Anthropic, SendGrid, Shopify, Linear, private keys, basic
 * auth and database connection strings): the texts are joined into one source, linted once
 * (`lintSource`, Node ≥ 20), and each message's range mapped back to its text. The rule is the
 * message's `ruleId` (`@secretlint/secretlint-rule-github`). Loaded on first use.
 * @returns the finder
 */
export function secretlintFinder(): SecretFinder {
  return async (texts) => {
    // by name: the preset's bundled types name rule packages it does not install
    const [{ lintSource }, { creator }] = await Promise.all([
      import('@secretlint/core'),
      import(PRESET) as Promise<{ creator: never }>,
    ]);
    const found: Finding[][] = texts.map(() => []);
    if (texts.length === 0) return found;
    const starts: number[] = [];
    let at = 0;
    for (const t of texts) {
      starts.push(at);
      at += t.length + JOIN.length;
    }
    const result = await lintSource({
      source: { content: texts.join(JOIN), filePath: 'session.txt', ext: '.txt', contentType: 'text' },
      options: { config: { rules: [{ id: PRESET, rule: creator }] } },
    });
    for (const m of result.messages) {
      const [start, end] = m.range;
      let lo = 0;
      let hi = starts.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if ((starts[mid] as number) <= start) lo = mid;
        else hi = mid - 1;
      }
      const base = starts[lo] as number;
      const length = (texts[lo] as string).length;
      (found[lo] as Finding[]).push({ rule: m.ruleId, start: start - base, end: Math.min(end - base, length) });
    }
    return found;
  };
}
