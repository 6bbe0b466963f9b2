const utf8 = new TextEncoder();
/**
 * Buffers reused from digest to digest (one at a time; grown for a longer text): allocating a typed array
 * costs more than hashing a uuid.
 */
let bytes = new Uint8Array(256);
let words = new Int32Array(80);
const schedule = new Int32Array(80);
/** The round constants, a fifth of the rounds each. */
const K = [0x5a827999, 0x6ed9eba1, 0x8f1bbcdc | 0, 0xca62c1d6 | 0];

/**
 * The SHA-1 (FIPS 180-4) of a string's UTF-8 bytes, as 40 lowercase hex digits: what
 * `hash('sha1', text)` of `node:crypto` returns (a lone surrogate encodes as U+FFFD there and here), in
 * plain JavaScript so that `romp show` does not load `node:crypto` (about 9 ms of its start-up).
 * Used for the turn ids and the session colours, which must stay the same bit for bit.
 *
 * @param text any string
 * @returns the digest, hex
 */
export function sha1Hex(text: string): string {
  const length = messageWords(text);
  let h0 = 0x67452301;
  let h1 = 0xefcdab89 | 0;
  let h2 = 0x98badcfe | 0;
  let h3 = 0x10325476;
  let h4 = 0xc3d2e1f0 | 0;
  const w = schedule;
  for (let block = 0; block < length; block += 16) {
    for (let t = 0; t < 16; t++) w[t] = words[block + t]!;
    for (let t = 16; t < 80; t++) {
      const x = w[t - 3]! ^ w[t - 8]! ^ w[t - 14]! ^ w[t - 16]!;
      w[t] = (x << 1) | (x >>> 31);
    }
    let a = h0;
    let b = h1;
    let c = h2;
    let d = h3;
    let e = h4;
    for (let t = 0; t < 80; t++) {
      const f = t < 20 ? (b & c) | (~b & d) : t < 40 || t >= 60 ? b ^ c ^ d : (b & c) | (b & d) | (c & d);
      const next = (((a << 5) | (a >>> 27)) + f + e + w[t]! + K[(t / 20) | 0]!) | 0;
      e = d;
      d = c;
      c = (b << 30) | (b >>> 2);
      b = a;
      a = next;
    }
    h0 = (h0 + a) | 0;
    h1 = (h1 + b) | 0;
    h2 = (h2 + c) | 0;
    h3 = (h3 + d) | 0;
    h4 = (h4 + e) | 0;
  }
  return hex(h0) + hex(h1) + hex(h2) + hex(h3) + hex(h4);
}

/**
 * Writes the padded message (UTF-8 bytes, 0x80, zeros, the bit length) into `words`, big-endian.
 * @returns its length in 32-bit words
 */
function messageWords(text: string): number {
  let n = text.length;
  let ascii = true;
  for (let i = 0; i < n && ascii; i++) ascii = text.charCodeAt(i) < 0x80;
  if (!ascii) {
    if (bytes.length < n * 3) bytes = new Uint8Array(n * 3);
    n = utf8.encodeInto(text, bytes).written;
  }
  const length = (((n + 8) >>> 6) + 1) * 16;
  if (words.length < length) words = new Int32Array(length);
  words.fill(0, 0, length);
  for (let i = 0; i < n; i++) words[i >>> 2]! |= (ascii ? text.charCodeAt(i) : bytes[i]!) << (24 - (i & 3) * 8);
  words[n >>> 2]! |= 0x80 << (24 - (n & 3) * 8);
  // the length in bits, big-endian in the last 64 bits (a string here stays far below 2^29 bytes)
  words[length - 1] = n * 8;
  return length;
}

/** `00` … `ff` by byte: `Number#toString(16)` would cost more than the whole digest. */
const HEX = Array.from({ length: 256 }, (_, i) => (i < 16 ? '0' : '') + i.toString(16));

function hex(h: number): string {
  return HEX[(h >>> 24) & 255]! + HEX[(h >>> 16) & 255]! + HEX[(h >>> 8) & 255]! + HEX[h & 255]!;
}
