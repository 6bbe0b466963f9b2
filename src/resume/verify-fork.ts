import type { RawRecord } from '../read/parse-line.ts';

/** What the official reader said about a fork. */
export type ForkCheck = { checked: true; ok: boolean; got: string[] } | { checked: false; reason: string };

/**
 * Loads a fork's lines with the Agent SDK's own transcript reader, `getSessionMessages`
 * (`@anthropic-ai/claude-agent-sdk`, an optional peer, imported only here and only when asked), from
 * an in-memory session store (its `sessionStore` option: nothing is written anywhere), and compares the
 * uuids it returns with the ones expected, in order.
 * @param lines the fork's lines
 * @param sessionId their session id
 * @param expected the uuids the reader should return
 * @returns `ok` when they are the same; `checked: false` with the reason when the SDK is not installed
 */
export async function verifyFork(
  lines: readonly RawRecord[],
  sessionId: string,
  expected: readonly string[],
): Promise<ForkCheck> {
  let sdk: { getSessionMessages: (id: string, options: unknown) => Promise<Array<{ uuid: string }>> };
  try {
    sdk = (await import('@anthropic-ai/claude-agent-sdk')) as unknown as typeof sdk;
  } catch {
    return {
      checked: false,
      reason:
        '@anthropic-ai/claude-agent-sdk is not installed (npm i @anthropic-ai/claude-agent-sdk to check forks with its getSessionMessages)',
    };
  }
  const store = {
    append: async (): Promise<void> => {},
    load: async (): Promise<RawRecord[]> => lines.map((l) => ({ ...l })),
    listSessions: async (): Promise<never[]> => [],
  };
  const got = (await sdk.getSessionMessages(sessionId, { sessionStore: store, dir: process.cwd() })).map((m) => m.uuid);
  return { checked: true, ok: got.length === expected.length && got.every((u, i) => u === expected[i]), got };
}
