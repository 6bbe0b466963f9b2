import { sha1Hex } from '../model/sha1-hex.ts';

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
  return `${rompUuid}:${t}:${sha1Hex(anchorUuid).slice(0, 12)}`;
}
