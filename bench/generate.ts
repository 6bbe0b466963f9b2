/**
 * Writes a synthetic but realistic Claude Code transcript of about `targetBytes` bytes: turns of a
 * typed prompt, split assistant lines (thinking, text, parallel tool_use), Read results of 0.5–8 KB
 * written twice as Claude Code does (the `tool_result`, and the file again in `toolUseResult`: a third of
 * the corpus's bytes), progress rows, file-history snapshots, a compaction every ~2,000 lines and a
 * rewind now and then.
 * Deterministic (seeded). ASCII filler, so not what the bench measures on (`bench/replicate.ts` is):
 * the 600 MB test (`tests/big-file.test.ts`) uses it because it knows the turns and lines it wrote.
 */
import { createWriteStream } from 'node:fs';

/** Changes with what `generateTranscript` writes: part of the names of generated files kept between runs. */
export const GENERATOR_VERSION = 2;

function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS =
  'the parser reads each line of the transcript and builds turns from atoms while the graph walk keeps the active path'.split(
    ' ',
  );

/**
 * @param path where to write
 * @param targetBytes approximate size in bytes
 * @param prefix makes session, message and request ids unique to this file (for folders of many)
 * @returns the bytes and lines written, and the turns on the active path
 */
export async function generateTranscript(
  path: string,
  targetBytes: number,
  prefix = '',
): Promise<{ bytes: number; lines: number; turns: number }> {
  const random = prng(42 + prefix.length);
  const words = (n: number): string =>
    Array.from({ length: n }, () => WORDS[Math.floor(random() * WORDS.length)]).join(' ');
  const out = createWriteStream(path);
  let bytes = 0;
  let n = 0;
  let clock = Date.parse('2026-01-01T00:00:00Z');
  let parent: string | null = null;
  const sid = `${prefix}3b1f7c2e-0000-4000-8000-000000000001`;
  const uuid = (): string => `${prefix}00000000-0000-4000-8000-${(n++).toString(16).padStart(12, '0')}`;
  let lines = 0;
  const write = async (record: Record<string, unknown>): Promise<void> => {
    lines++;
    const line = `${JSON.stringify(record)}\n`;
    bytes += Buffer.byteLength(line);
    if (!out.write(line)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  };
  const line = async (
    type: string,
    extra: Record<string, unknown>,
    parentUuid: string | null = parent,
  ): Promise<string> => {
    const id = uuid();
    clock += 200 + Math.floor(random() * 3000);
    await write({
      parentUuid,
      isSidechain: false,
      userType: 'external',
      cwd: '/work/bench',
      sessionId: sid,
      version: '2.1.112',
      gitBranch: 'main',
      type,
      uuid: id,
      timestamp: new Date(clock).toISOString(),
      ...extra,
    });
    return id;
  };
  let turn = 0;
  while (bytes < targetBytes) {
    turn++;
    await write({
      type: 'file-history-snapshot',
      messageId: `snap-${turn}`,
      snapshot: {
        messageId: `snap-${turn}`,
        trackedFileBackups: {
          'src/a.ts': { backupFileName: `a@v${turn}`, version: turn, backupTime: new Date(clock).toISOString() },
        },
        timestamp: new Date(clock).toISOString(),
      },
      isSnapshotUpdate: false,
    });
    const rewindFrom = parent;
    parent = await line('user', {
      message: { role: 'user', content: words(20 + Math.floor(random() * 60)) },
      promptSource: 'typed',
    });
    if (turn % 50 === 0 && rewindFrom !== null)
      parent = await line('user', { message: { role: 'user', content: words(15) }, promptSource: 'typed' }, rewindFrom);
    const steps = 1 + Math.floor(random() * 6);
    for (let s = 0; s < steps; s++) {
      const mid = `msg_${prefix}${turn}_${s}`;
      const usage = {
        input_tokens: 10,
        output_tokens: 200 + s,
        cache_creation_input_tokens: 500,
        cache_read_input_tokens: 40000,
      };
      const last = s === steps - 1;
      const assistant = (content: unknown[]): Record<string, unknown> => ({
        message: {
          id: mid,
          type: 'message',
          role: 'assistant',
          model: 'claude-sonnet-4-5',
          content,
          stop_reason: last ? 'end_turn' : 'tool_use',
          stop_sequence: null,
          usage,
        },
        requestId: `req_${mid}`,
      });
      parent = await line(
        'assistant',
        assistant([{ type: 'thinking', thinking: words(40), signature: 'x'.repeat(200) }]),
      );
      parent = await line('assistant', assistant([{ type: 'text', text: words(30 + Math.floor(random() * 100)) }]));
      if (last) break;
      const calls = random() < 0.2 ? 3 : 1;
      const uses: string[] = [];
      for (let c = 0; c < calls; c++) {
        parent = await line(
          'assistant',
          assistant([
            { type: 'tool_use', id: `toolu_${turn}_${s}_${c}`, name: 'Read', input: { file_path: `src/f${c}.ts` } },
          ]),
        );
        uses.push(parent);
      }
      let result = parent;
      for (const [c, use] of uses.entries()) {
        const progress = await line(
          'progress',
          { data: { type: 'hook_progress', hookEvent: 'PostToolUse' }, toolUseID: `toolu_${turn}_${s}_${c}` },
          use,
        );
        const size = 500 + Math.floor(random() * 7500);
        const text = words(Math.floor(size / 6));
        // Claude Code writes a Read result twice: for the model, and as the harness's own toolUseResult
        const file = {
          filePath: `src/f${c}.ts`,
          content: text,
          numLines: Math.ceil(size / 80),
          startLine: 1,
          totalLines: Math.ceil(size / 80),
        };
        result = await line(
          'user',
          {
            message: {
              role: 'user',
              content: [{ type: 'tool_result', tool_use_id: `toolu_${turn}_${s}_${c}`, content: text }],
            },
            toolUseResult: { type: 'text', file },
            sourceToolAssistantUUID: use,
          },
          progress,
        );
      }
      parent = result;
    }
    await line('system', { subtype: 'turn_duration', durationMs: 12000, isMeta: false });
    if (turn % 300 === 0) {
      const tail = parent;
      parent = await line(
        'system',
        {
          subtype: 'compact_boundary',
          content: 'Conversation compacted',
          logicalParentUuid: tail,
          compactMetadata: { trigger: 'auto', preTokens: 160000 },
        },
        null,
      );
      parent = await line('user', {
        message: { role: 'user', content: `This session is being continued ${words(300)}` },
        isCompactSummary: true,
        isVisibleInTranscriptOnly: true,
      });
    }
  }
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
  return { bytes, lines, turns: turn };
}
