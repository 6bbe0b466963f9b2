import { isKnownBlock } from '../model/is-known-block.ts';
import type { Atom, Turn } from '../model/types.ts';
import { withoutPostalMarker } from '../tree/find-postal-id.ts';
import { ORIGINAL_PROMPT } from '../tree/to-atom.ts';

/** Blocks Claude Code adds beside what the user typed (the IDE's context, reminders). */
const ADDED_BLOCKS = ['ide_opened_file', 'ide_selection', 'system-reminder'];

/**
 * What the user typed to open a turn (issue 12, §3; pure): `typedText` of its trigger; `""` for a turn
 * without one (autonomous).
 * @param turn a turn
 * @returns the text
 */
export function promptText(turn: Turn): string {
  const trigger = triggerAtom(turn);
  return trigger === undefined ? '' : typedText(trigger);
}

/**
 * The atom that opened a turn.
 * @param turn a turn
 * @returns its trigger's atom; `undefined` for a turn without one
 */
export function triggerAtom(turn: Turn): Atom | undefined {
  return turn.trigger === null ? undefined : turn.atoms.find((a) => a.uuid === turn.trigger?.uuid);
}

/**
 * What the user typed, from a user atom as Claude Code wrote it (transcript-format §14):
 * - a slash command as `/name args` (`<command-name>/review</command-name>` +
 *   `<command-args>the auth module</command-args>` → `/review the auth module`), not its XML (the
 *   expanded prompt is a line of its own, never this one);
 * - a `!` shell command (`<bash-input>ls</bash-input>`) as `!ls`;
 * - otherwise its text blocks, without the blocks Claude Code adds beside them (`<ide_opened_file>`,
 *   `<ide_selection>`, `<system-reminder>`, wherever they are in a text) and without the romp postal
 *   marker `<!-- romp-msg-id: ID -->`; an `image` block as `[image]`; parts joined by a newline, trimmed;
 * - a prompt a `UserPromptSubmit` hook blocked (`subtype: "informational"`): the prompt after
 *   "Original prompt: ".
 *
 * Every scan is a left-to-right `indexOf` walk (linear in the text).
 *
 * @param atom a user atom (a queued or absorbed prompt reads the same: its content is the prompt as typed)
 * @returns the text
 */
export function typedText(atom: Pick<Atom, 'message' | 'subtype'>): string {
  const parts: string[] = [];
  for (const block of atom.message?.content ?? []) {
    if (!isKnownBlock(block)) continue;
    if (block.type === 'image') parts.push('[image]');
    if (block.type !== 'text') continue;
    const text = block.text;
    if (atom.subtype === 'informational') {
      const at = text.lastIndexOf(ORIGINAL_PROMPT);
      return (at < 0 ? text : text.slice(at + ORIGINAL_PROMPT.length)).trim();
    }
    const command = inside(text, 'command-name');
    if (command !== undefined) {
      const name = command.trim();
      const args = inside(text, 'command-args')?.trim() ?? '';
      return `${name.startsWith('/') ? name : `/${name}`}${args === '' ? '' : ` ${args}`}`;
    }
    const shell = inside(text, 'bash-input');
    if (shell !== undefined) return `!${shell}`;
    let kept = text;
    for (const tag of ADDED_BLOCKS) kept = withoutBlocks(kept, tag);
    kept = withoutPostalMarker(kept).trim();
    if (kept !== '') parts.push(kept);
  }
  return parts.join('\n').trim();
}

/** The text between the first `<tag>` and the `</tag>` after it; `undefined` without both. */
function inside(text: string, tag: string): string | undefined {
  const open = text.indexOf(`<${tag}>`);
  if (open < 0) return undefined;
  const from = open + tag.length + 2;
  const close = text.indexOf(`</${tag}>`, from);
  return close < 0 ? undefined : text.slice(from, close);
}

/** The text without every `<tag>…</tag>` span (an unclosed one runs to the end). */
function withoutBlocks(text: string, tag: string): string {
  const open = `<${tag}>`;
  const close = `</${tag}>`;
  let at = text.indexOf(open);
  if (at < 0) return text;
  let out = '';
  let from = 0;
  while (at >= 0) {
    out += text.slice(from, at);
    const end = text.indexOf(close, at + open.length);
    if (end < 0) return out;
    from = end + close.length;
    at = text.indexOf(open, from);
  }
  return out + text.slice(from);
}
