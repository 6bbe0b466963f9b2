/**
 * romp: Claude Code sessions as one model, `Session → Turn → Atom → ContentBlock`.
 *
 * The facade is `parseSession`; each stage is exported on its own: read (`readTranscript`,
 * `readTranscriptLines`, `LineDecoder`, `parseLine`), graph (`buildIndex`, `resolveActivePath`),
 * tree (`toAtom`, `deriveAuthor`, `stepTurns`/`buildTurns`); the stream substrate (`decodeStream`,
 * `reduceStream`, `streamSession`, `fromStream`). See docs/pipeline.md.
 */
export type * from './model/types.ts';
export { isKnownBlock } from './model/is-known-block.ts';
export { toolResultText } from './model/tool-result-text.ts';
export { diagnostic, formatDiagnostic, SEVERITY } from './diagnostics/diagnostic.ts';
export type { Diagnostic, DiagnosticCode, OnDiagnostic, Severity } from './diagnostics/diagnostic.ts';
export { LineDecoder, DEFAULT_MAX_LINE_BYTES } from './read/line-decoder.ts';
export { parseLine } from './read/parse-line.ts';
export type { RawRecord, LineResult } from './read/parse-line.ts';
export { splitGlued } from './read/split-glued.ts';
export { readTranscript, readTranscriptLines } from './read/read-transcript.ts';
export type { ReadOptions, ReadResult, ReadRecord, ReadStats } from './read/read-transcript.ts';
export { buildIndex } from './graph/build-index.ts';
export type { GraphIndex } from './graph/build-index.ts';
export type { Entry } from './graph/entry.ts';
export { EntrySet } from './graph/entry-set.ts';
export { resolveActivePath } from './graph/resolve-active-path.ts';
export type { ActivePath, View } from './graph/resolve-active-path.ts';
export type { Checkpoint } from './graph/pick-leaf.ts';
export { toAtom } from './tree/to-atom.ts';
export { deriveAuthor } from './tree/derive-author.ts';
export type { ResolvePeer } from './tree/derive-author.ts';
export { buildTurns, finishTurns, initialTurns, isOpenerAuthor, stepTurns } from './tree/build-turns.ts';
export type { BoundaryMode, TurnEndMarker, TurnsState } from './tree/build-turns.ts';
export { normaliseMessage } from './tree/normalise-message.ts';
export { createStreamState, reduceStream, streamSession } from './stream/reduce-stream.ts';
export type { StreamMessage, StreamOptions, StreamState } from './stream/reduce-stream.ts';
export { decodeStream } from './stream/decode-stream.ts';
export type { DecodeOptions } from './stream/decode-stream.ts';
export { fromStream } from './stream/from-stream.ts';
export { SessionWatcher } from './live/session-watcher.ts';
export type { WatchUpdate } from './live/session-watcher.ts';
export { watchSession } from './live/watch-session.ts';
export type { WatchSessionOptions } from './live/watch-session.ts';
export { listClaudeSessions } from './discover/list-claude-sessions.ts';
export type { ClaudeSessionInfo, ListOptions } from './discover/list-claude-sessions.ts';
export {
  isRompUuid,
  listSessions,
  recordResume,
  registerSession,
  RegistryError,
  resolveSession,
} from './romp-home/registry.ts';
export { isKnownTime, UNKNOWN_TIME } from './model/time.ts';
export type { NewSession, RegisteredFile, RegistryEntry } from './romp-home/registry.ts';
export { rompHome } from './romp-home/romp-home.ts';
export { examineFiles } from './doctor/examine-files.ts';
export type { FileReport } from './doctor/examine-files.ts';
export type { FromStreamOptions, StreamSnapshot } from './stream/from-stream.ts';
export { collectFiles } from './session/collect-files.ts';
export { buildSession } from './session/build-session.ts';
export { parseSession } from './session/parse-session.ts';
export type { ParseOptions, ParseResult } from './session/parse-session.ts';
export { segments } from './views/segments.ts';
export type { Segment } from './views/segments.ts';
export { positions } from './views/positions.ts';
export type { Position } from './views/positions.ts';
export { decisions, DECISION_TOOLS } from './views/decisions.ts';
export type { Decision } from './views/decisions.ts';
export { toolCalls } from './views/tool-calls.ts';
export type { ToolCall } from './views/tool-calls.ts';
export { queryAtoms, queryTurns } from './views/query.ts';
export type { AtomFilter, AtomMatch } from './views/query.ts';
export { turnOutcome } from './views/turn-outcome.ts';
export type { TurnOutcome } from './views/turn-outcome.ts';
export { promptText, typedText } from './views/prompt-text.ts';
export { summarizeTurn } from './views/summarize-turn.ts';
export type { TurnSummary } from './views/summarize-turn.ts';
export { countAtomUsage, countUsage } from './usage/count-usage.ts';
export type { Totals, UsageReport, UsageOptions } from './usage/count-usage.ts';
export { PRICES, priceFor } from './usage/prices.ts';
export type { Price } from './usage/prices.ts';
export { findSubagents, parseSubagent } from './discover/find-subagents.ts';
export type { SubagentLink } from './views/subagents.ts';
export { buildHtmlPage } from './html/build-html-page.ts';
export type { HtmlPageOptions } from './html/build-html-page.ts';
export { findLostTurns } from './resume/find-lost-turns.ts';
export type { CauseNote, LossCause, LostTurn, ResumeReport, ResumeViews } from './resume/find-lost-turns.ts';
export { readResumeViews } from './resume/read-resume-views.ts';
export { explainCacheWrites } from './cache/explain-cache-writes.ts';
export type {
  CacheCause,
  CacheLine,
  CacheOptions,
  CacheReport,
  CacheWrite,
  CauseTotals,
} from './cache/explain-cache-writes.ts';
export { readCacheLines } from './cache/read-cache-lines.ts';
export { cacheClock } from './cache/cache-clock.ts';
export type { CacheClock } from './cache/cache-clock.ts';
