import { sha1Hex } from './sha1-hex.ts';

/**
 * A stable colour for a session: the hue from the SHA-1 of its rompUuid, at 65 % saturation and
 * 50 % lightness, so sessions are told apart at a glance and keep their colour across reads.
 * @param rompUuid the session's identity
 * @returns a `#rrggbb` colour
 */
export function colorOf(rompUuid: string): string {
  const hue = parseInt(sha1Hex(rompUuid).slice(0, 4), 16) % 360;
  const s = 0.65;
  const l = 0.5;
  const a = s * Math.min(l, 1 - l);
  const channel = (n: number): string => {
    const k = (n + hue / 30) % 12;
    const value = l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
    return Math.round(value * 255)
      .toString(16)
      .padStart(2, '0');
  };
  return `#${channel(0)}${channel(8)}${channel(4)}`;
}
