import type { ApiMessage, MessageBlock } from '../model/types.ts';

type Fields = Record<string, unknown>;

const isString = (v: unknown): boolean => typeof v === 'string';
const isObject = (v: unknown): v is Fields => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What each known block type must hold for its `ContentBlock` type to be true (`tool_result` content: below). */
const FITS: Readonly<Partial<Record<string, (b: Fields) => boolean>>> = {
  text: (b) => isString(b['text']),
  thinking: (b) => isString(b['thinking']) && (b['signature'] === undefined || isString(b['signature'])),
  redacted_thinking: (b) => isString(b['data']),
  tool_use: (b) => isString(b['id']) && isString(b['name']) && 'input' in b,
  tool_result: (b) => isString(b['tool_use_id']) && (b['is_error'] === undefined || typeof b['is_error'] === 'boolean'),
  image: (b) => isObject(b['source']) && isString(b['source']['type']),
};

/**
 * One entry of a content array as the model types it: a non-object, an object without a string `type`,
 * or a block of a known type whose
 * fields do not fit its `ContentBlock` type (a `text` block whose `text` is not a string), becomes
 * `{type: "(invalid)", value}` with the entry as read; a `tool_result`'s array `content` is checked the
 * same way, and content that is neither a string nor an array makes the block `(invalid)` too.
 * @returns the entry itself when it fits (not copied)
 */
function checkBlock(entry: unknown): MessageBlock {
  if (!isObject(entry) || typeof entry['type'] !== 'string') return { type: '(invalid)', value: entry };
  const fits = Object.hasOwn(FITS, entry['type']) ? FITS[entry['type']] : undefined;
  if (fits !== undefined && !fits(entry)) return { type: '(invalid)', value: entry };
  if (entry['type'] === 'tool_result') {
    const content = entry['content'];
    if (content !== undefined && !isString(content) && !Array.isArray(content))
      return { type: '(invalid)', value: entry };
    if (Array.isArray(content)) {
      const checked = checkBlocks(content);
      if (checked !== content) return { ...entry, content: checked } as MessageBlock;
    }
  }
  return entry as MessageBlock;
}

/** A content array with every entry checked (`checkBlock`); the array itself when all fit. */
function checkBlocks(content: readonly unknown[]): MessageBlock[] {
  let out: MessageBlock[] | undefined;
  for (let i = 0; i < content.length; i++) {
    const block = checkBlock(content[i]);
    if (block !== content[i]) out ??= content.slice(0, i) as MessageBlock[];
    out?.push(block);
  }
  return out ?? (content as MessageBlock[]);
}

/**
 * A user or assistant message with `content` as a block array the model's types can trust (untrusted
 * transcripts cannot break them): a string becomes one `text` block, a missing content an empty array;
 * an entry that is not an object, or a block of a known type (`text`, `thinking`, `redacted_thinking`,
 * `tool_use`, `tool_result`, `image`) whose required fields are missing or of the wrong type, becomes
 * `{type: "(invalid)", value}` holding the entry as read, so nothing is lost, no consumer meets a
 * non-object block, and `isKnownBlock` tells the truth (docs/model.md, "Content blocks").
 * A message already in that shape is returned as is (not copied).
 *
 * @param role the role the line or frame says it has
 * @param raw the `message` field as read
 * @returns the message
 */
export function normaliseMessage(role: 'user' | 'assistant', raw: unknown): ApiMessage {
  const message = (isObject(raw) ? raw : {}) as Partial<ApiMessage> & { content?: unknown };
  const content = message.content;
  const blocks: MessageBlock[] = Array.isArray(content)
    ? checkBlocks(content)
    : typeof content === 'string'
      ? [{ type: 'text', text: content }]
      : [];
  if (blocks === content && message.role === role) return message as ApiMessage;
  return { ...message, role, content: blocks };
}
