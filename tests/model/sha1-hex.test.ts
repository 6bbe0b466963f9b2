import assert from 'node:assert/strict';
import { hash } from 'node:crypto';
import { test } from 'node:test';
import fc from 'fast-check';
import { colorOf } from '../../src/model/color-of.ts';
import { sha1Hex } from '../../src/model/sha1-hex.ts';
import { turnId } from '../../src/tree/turn-id.ts';

test('sha1Hex: the digests of FIPS 180-4 and RFC 3174', () => {
  assert.equal(sha1Hex(''), 'da39a3ee5e6b4b0d3255bfef95601890afd80709');
  assert.equal(sha1Hex('abc'), 'a9993e364706816aba3e25717850c26c9cd0d89d');
  assert.equal(
    sha1Hex('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq'),
    '84983e441c3bd26ebaae4aa1f95129e5e54670f1',
  );
});

test("sha1Hex: node:crypto's digest at every padding boundary and for non-ASCII text", () => {
  // 55/56 and 63/64 bytes: the length field fits in the last block or needs one more
  const lengths = [0, 1, 3, 54, 55, 56, 57, 63, 64, 65, 119, 120, 127, 128, 1000];
  const texts = [
    ...lengths.map((n) => 'x'.repeat(n)),
    ...lengths.map((n) => 'é'.repeat(n)),
    '€😀 日本語',
    'a\ud800b', // a lone surrogate: U+FFFD in both
    '\udc00',
    '\u0000\u007f\u0080',
  ];
  for (const text of texts) assert.equal(sha1Hex(text), hash('sha1', text), JSON.stringify(text));
});

test("sha1Hex: node:crypto's digest for any string", () => {
  fc.assert(
    fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (text) => sha1Hex(text) === hash('sha1', text)),
    { numRuns: 2000 },
  );
  fc.assert(
    fc.property(fc.uuid(), (uuid) => sha1Hex(uuid) === hash('sha1', uuid)),
    { numRuns: 2000 },
  );
});

test('turn ids and session colours are what node:crypto gave them', () => {
  // computed with hash('sha1', uuid) of node:crypto: the first 12 hex digits; the first 16 bits % 360 = hue 54
  const uuid = '7f3c2a10-5b4e-4d8a-9c61-2e0f8b7d4a93';
  assert.equal(turnId('R', 5, uuid), 'R:5:d1be467ab146');
  assert.equal(colorOf(uuid), '#d2c22d');
});
