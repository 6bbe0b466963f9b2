import { plural } from '../text/format-count.ts';
/** The longest label `toolLabel` gives, in characters (UTF-16 units), an ellipsis included. */
export const TOOL_LABEL_MAX = 160;

type Input = Record<string, unknown>;

const str = (input: Input, key: string): string | undefined => {
  const value = input[key];
  return typeof value === 'string' && value !== '' ? value : undefined;
};
const int = (input: Input, key: string): number | undefined => {
  const value = input[key];
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined;
};
const lineCount = (text: string | undefined): number =>
  text === undefined || text === '' ? 0 : text.split('\n').length;

/** A Read's range: `:10-40` from `offset` (first line, 1-based) and `limit` (lines). */
function readRange(input: Input): string {
  const offset = int(input, 'offset');
  const limit = int(input, 'limit');
  if (offset === undefined && limit === undefined) return '';
  const first = offset ?? 1;
  return limit === undefined ? `:${first}-` : `:${first}-${first + limit - 1}`;
}

/** An Edit's or MultiEdit's size: `+added −removed` lines over its old/new strings. */
function editSize(edits: Input[]): string {
  let added = 0;
  let removed = 0;
  for (const edit of edits) {
    added += lineCount(str(edit, 'new_string'));
    removed += lineCount(str(edit, 'old_string'));
  }
  return `+${added} −${removed}`;
}

/** What each of Claude Code's built-in tools is called with, told in a few words. */
const LABELS: ReadonlyMap<string, (input: Input) => string | undefined> = new Map<
  string,
  (input: Input) => string | undefined
>([
  ['Bash', (i) => str(i, 'command')],
  ['Read', (i) => (str(i, 'file_path') === undefined ? undefined : `${str(i, 'file_path')}${readRange(i)}`)],
  ['Edit', (i) => (str(i, 'file_path') === undefined ? undefined : `${str(i, 'file_path')} ${editSize([i])}`)],
  [
    'MultiEdit',
    (i) =>
      str(i, 'file_path') === undefined
        ? undefined
        : `${str(i, 'file_path')} ${editSize(Array.isArray(i['edits']) ? (i['edits'].filter((e) => typeof e === 'object' && e !== null) as Input[]) : [])}`,
  ],
  [
    'Write',
    (i) =>
      str(i, 'file_path') === undefined
        ? undefined
        : `${str(i, 'file_path')} (${lineCount(str(i, 'content'))} ${lineCount(str(i, 'content')) === 1 ? 'line' : 'lines'})`,
  ],
  ['NotebookEdit', (i) => str(i, 'notebook_path')],
  [
    'Grep',
    (i) =>
      str(i, 'pattern') === undefined
        ? undefined
        : `${JSON.stringify(str(i, 'pattern'))}${str(i, 'path') === undefined ? '' : ` in ${str(i, 'path')}`}${str(i, 'glob') === undefined ? '' : ` (${str(i, 'glob')})`}`,
  ],
  [
    'Glob',
    (i) =>
      str(i, 'pattern') === undefined
        ? undefined
        : `${str(i, 'pattern')}${str(i, 'path') === undefined ? '' : ` in ${str(i, 'path')}`}`,
  ],
  ['WebFetch', (i) => str(i, 'url')],
  ['WebSearch', (i) => (str(i, 'query') === undefined ? undefined : JSON.stringify(str(i, 'query')))],
  ['Task', (i) => taskLabel(i)],
  ['Agent', (i) => taskLabel(i)],
  ['TodoWrite', (i) => (Array.isArray(i['todos']) ? plural(i['todos'].length, 'todo') : undefined)],
  ['AskUserQuestion', (i) => (Array.isArray(i['questions']) ? plural(i['questions'].length, 'question') : undefined)],
  ['ExitPlanMode', () => 'plan'],
]);

function taskLabel(input: Input): string | undefined {
  const what = str(input, 'description') ?? str(input, 'prompt');
  if (what === undefined) return undefined;
  const type = str(input, 'subagent_type');
  return type === undefined ? what : `${what} (${type})`;
}

/**
 * A tool call told in one line, as a person scans a conversation: the tool's name and its key input
 * (`Bash: npm test`, `Read: src/a.ts:10-40`, `Edit: src/x.ts +3 −1`, `Grep: "TODO" in src`,
 * `Task: fix the parser (general-purpose)`), from the `input` of a `tool_use` block as Claude Code's
 * built-in tools take it (2.x tool schemas). Any other tool (MCP tools, new ones) shows its first
 * string input. Whitespace runs become one space; the label is cut to {@link TOOL_LABEL_MAX}
 * characters with `…`. The text is the transcript's: a printer still makes it safe for its medium.
 * @param name the `tool_use` block's `name`
 * @param input its `input` (any JSON value)
 * @returns the label, e.g. `Bash: npm test`; the name alone when the input says nothing
 */
export function toolLabel(name: string, input: unknown): string {
  const fields = typeof input === 'object' && input !== null && !Array.isArray(input) ? (input as Input) : {};
  const known = LABELS.get(name);
  const detail =
    known === undefined
      ? Object.values(fields).find((v): v is string => typeof v === 'string' && v !== '')
      : known(fields);
  const label = (detail === undefined ? name : `${name}: ${detail}`).replace(/\s+/g, ' ').trim();
  return label.length > TOOL_LABEL_MAX ? `${label.slice(0, TOOL_LABEL_MAX - 1)}…` : label;
}
