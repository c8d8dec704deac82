import { describe, expect, it } from 'vitest';
import { newInvocationId } from '../../src/log';

/** Crockford base 32: digits and capitals without I, L, O, U. */
const ID = /^[0-9A-HJKMNP-TV-Z]{8}$/;
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

describe('newInvocationId', () => {
  it('gives 8 Crockford base-32 characters, all different across many pool refills', () => {
    // 5,000 ids draw the pool of random bytes ~40 times over.
    const ids = Array.from({ length: 5000 }, () => newInvocationId());
    for (const id of ids) expect(id).toMatch(ID);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('uses all 40 random bits: every character occurs in the first and in the last place', () => {
    const ids = Array.from({ length: 5000 }, () => newInvocationId());
    // The first place is the top 5 bits (of the first byte), the last the bottom 5 (of the fifth).
    expect(new Set(ids.map((id) => id[0])).size).toBe(ALPHABET.length);
    expect(new Set(ids.map((id) => id[7])).size).toBe(ALPHABET.length);
  });
});
