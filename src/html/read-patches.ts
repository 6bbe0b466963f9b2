import { readTranscriptLines } from '../read/read-transcript.ts';

/** One hunk of a unified diff, in Claude Code's `toolUseResult.structuredPatch` shape (jsdiff's). */
export interface Hunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  /** Each line with its prefix: `' '` context, `'-'` removed, `'+'` added (`'\'` no newline). */
  lines: string[];
}

const isHunk = (h: unknown): h is Hunk => {
  const o = h as Partial<Hunk> | null;
  return (
    typeof o === 'object' &&
    o !== null &&
    typeof o.oldStart === 'number' &&
    typeof o.newStart === 'number' &&
    Array.isArray(o.lines) &&
    o.lines.every((l) => typeof l === 'string')
  );
};

/**
 * The hunks Claude Code wrote for its file edits: `toolUseResult.structuredPatch` of the lines carrying
 * an `Edit` / `MultiEdit` / `Write` result (Claude Code 1.0.x+; the parse drops `toolUseResult`, so the
 * page reads them again here, only lines holding `"structuredPatch"` being parsed). Keyed by the
 * `tool_use_id` of the line's `tool_result`. Unreadable lines and malformed hunks are skipped: the
 * parse reports those lines.
 * @param files transcript paths
 * @returns hunks by tool_use_id
 */
export async function readPatches(files: readonly string[]): Promise<Map<string, Hunk[]>> {
  const patches = new Map<string, Hunk[]>();
  for (const file of files) {
    await readTranscriptLines(
      file,
      (record) => {
        const patch = (record['toolUseResult'] as { structuredPatch?: unknown } | null | undefined)?.structuredPatch;
        const content = (record['message'] as { content?: unknown } | undefined)?.content;
        if (!Array.isArray(patch) || !patch.every(isHunk) || !Array.isArray(content)) return;
        for (const block of content as Array<{ type?: unknown; tool_use_id?: unknown }>) {
          if (block?.type === 'tool_result' && typeof block.tool_use_id === 'string')
            patches.set(block.tool_use_id, patch);
        }
      },
      () => undefined,
      { onlyLinesWith: '"structuredPatch"' },
    );
  }
  return patches;
}
