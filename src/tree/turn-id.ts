import { hash } from 'node:crypto';

/**
 * A turn's id: `${rompUuid}:${t}:${hash}` (seed, "Turn"), where `hash` is the first 12 hex digits of
 * the SHA-1 of the anchor atom's uuid (the trigger's, else the turn's first atom's). Anchor-keyed, so
 * the same turn read again, read with one more resume file, or read from a fork keeps its id.
 *
 * @param rompUuid the session's identity
 * @param t the turn's start (epoch ms)
 * @param anchorUuid uuid of the trigger, or of the first atom
 * @returns the id
 */
export function turnId(rompUuid: string, t: number, anchorUuid: string): string {
  return `${rompUuid}:${t}:${hash('sha1', anchorUuid).slice(0, 12)}`;
}
