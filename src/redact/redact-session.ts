import type { Atom, Session } from '../model/types.ts';
import { toolResultText } from '../model/tool-result-text.ts';
import { isEnvFile, structuralFindings, type Finding } from './structural-rules.ts';

/** Finds secrets in many texts at once (secretlint's recommended preset, `secretlintFinder`). */
export type SecretFinder = (texts: readonly string[]) => Promise<Finding[][]>;

/** Options of `redactSession`. */
export interface RedactOptions {
  /** Keep tool results' text (default: dropped, its length kept, `romp/tool-result`). */
  keepToolResults?: boolean;
  /** The rule set beside romp's own (default: none). */
  finder?: SecretFinder;
}

/** What was masked, per rule: `{rule: count}` (no prototype). */
export type RedactionCounts = Record<string, number>;

/**
 * Masks what should not leave the machine, in place, in every atom of the sessions (message text,
 * thinking, tool input strings, tool results): the text of tool results becomes `[redacted: N chars]`
 * unless kept (`romp/tool-result`); a tool result of a call that read a dotenv file is dropped even
 * then (`romp/env-file`); then every remaining text goes through romp's structural rules
 * (`structuralFindings`) and the finder's (secretlint), and each finding becomes
 * `[redacted:RULE]`. Async because secretlint is: all of a session's texts go to it in one call.
 * @param sessions the sessions (a session and its subagents), changed in place
 * @param options what to keep, the finder
 * @param counts the counts per rule, added to
 */
export async function redactSession(
  sessions: readonly Session[],
  options: RedactOptions,
  counts: RedactionCounts,
): Promise<void> {
  const bump = (rule: string, n = 1): void => {
    counts[rule] = (counts[rule] ?? 0) + n;
  };
  const envCalls = new Set<string>();
  const slots: Array<{ get: () => string; set: (s: string) => void }> = [];
  for (const session of sessions) {
    for (const atom of atoms(session)) {
      for (const b of atom.message?.content ?? []) {
        const block = b as unknown as Record<string, unknown>;
        if (
          block['type'] === 'tool_use' &&
          typeof block['id'] === 'string' &&
          isEnvFile(String((block['input'] as Record<string, unknown> | undefined)?.['file_path'] ?? ''))
        )
          envCalls.add(block['id']);
      }
    }
    for (const atom of atoms(session)) {
      for (const b of atom.message?.content ?? []) {
        const block = b as unknown as Record<string, unknown>;
        if (block['type'] === 'text' && typeof block['text'] === 'string') slots.push(field(block, 'text'));
        else if (block['type'] === 'thinking' && typeof block['thinking'] === 'string')
          slots.push(field(block, 'thinking'));
        else if (block['type'] === 'tool_use') collectStrings(block, 'input', slots, 0);
        else if (block['type'] === 'tool_result') {
          const env = envCalls.has(String(block['tool_use_id']));
          if (env || options.keepToolResults !== true) {
            const length = toolResultText(block['content']).length;
            if (length > 0) {
              block['content'] = `[redacted: ${length} chars]`;
              bump(env ? 'romp/env-file' : 'romp/tool-result');
            }
          } else collectStrings(block, 'content', slots, 0);
        }
      }
    }
  }
  const texts = slots.map((s) => s.get());
  const own = texts.map(structuralFindings);
  const theirs = options.finder === undefined ? [] : await options.finder(texts);
  texts.forEach((text, i) => {
    const findings = [...(own[i] ?? []), ...(theirs[i] ?? [])];
    if (findings.length === 0) return;
    const masked = mask(text, findings, bump);
    (slots[i] as (typeof slots)[number]).set(masked);
  });
}

function* atoms(session: Session): Generator<Atom> {
  for (const turn of session.turns) yield* turn.atoms;
}

function field(holder: Record<string, unknown>, key: string): { get: () => string; set: (s: string) => void } {
  return { get: () => holder[key] as string, set: (s) => (holder[key] = s) };
}

/** Every string under `holder[key]` (objects and arrays, 64 levels deep at most) as a slot. */
function collectStrings(
  holder: Record<string, unknown>,
  key: string,
  slots: Array<{ get: () => string; set: (s: string) => void }>,
  depth: number,
): void {
  const value = holder[key];
  if (typeof value === 'string') slots.push(field(holder, key));
  else if (typeof value === 'object' && value !== null && depth < 64)
    for (const k of Object.keys(value)) collectStrings(value as Record<string, unknown>, k, slots, depth + 1);
}

/** The text with each finding replaced by `[redacted:RULE]`; overlapping findings merge, the first rule naming the
 * span. */
function mask(text: string, findings: Finding[], bump: (rule: string) => void): string {
  findings.sort((a, b) => a.start - b.start || b.end - a.end);
  let out = '';
  let at = 0;
  for (const f of findings) {
    if (f.end <= at) continue;
    out += text.slice(at, Math.max(at, f.start));
    if (f.start >= at) {
      out += `[redacted:${f.rule}]`;
      bump(f.rule);
    }
    at = f.end;
  }
  return out + text.slice(at);
}
