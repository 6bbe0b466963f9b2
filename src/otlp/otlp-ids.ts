import { createHash } from 'node:crypto';

/**
 * The OTLP trace id of a session: the first 16 bytes (32 hex) of SHA-256 of `trace`, NUL, the
 * rompUuid. The same session exported again, from another machine or from a resumed copy whose first
 * line names the same session, gets the same id, so a backend replaces rather than duplicates.
 * @param rompUuid the session's identity
 * @returns 32 lowercase hex digits (OTLP/JSON writes ids as hex, not base64)
 */
export function traceIdOf(rompUuid: string): string {
  return digest(['trace', rompUuid]).slice(0, 32);
}

/**
 * The OTLP span id of one thing in a session: the first 8 bytes (16 hex) of SHA-256 of `span`, the
 * rompUuid and `parts` (what the span stands for: `session`, or a response's or tool call's id and the
 * uuid of its atom), NUL-separated, so ids never collide by concatenation.
 * @param rompUuid the session's identity
 * @param parts what names the span within the session
 * @returns 16 lowercase hex digits
 */
export function spanIdOf(rompUuid: string, ...parts: string[]): string {
  return digest(['span', rompUuid, ...parts]).slice(0, 16);
}

function digest(parts: string[]): string {
  return createHash('sha256').update(parts.join('\u0000')).digest('hex');
}
