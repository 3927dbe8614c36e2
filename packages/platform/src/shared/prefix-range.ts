/** Prefix searches as ranges an ordinary index answers, on columns in byte order on both databases. */

/**
 * The smallest string above every string starting with `prefix` in the columns' byte order (UTF-8,
 * which orders by code point), or undefined when none is (a prefix of U+10FFFF only). The last code
 * point that can grow grows by one, stepping over the surrogates, which are not characters: a UTF-16
 * unit's +1 would make U+FFFF a NUL (which PostgreSQL cannot hold) and split an astral character.
 */
export function prefixEnd(prefix: string): string | undefined {
  const points = Array.from(prefix);
  while (points.length > 0) {
    const last = points.pop()!.codePointAt(0)!;
    if (last < MAX_CODE_POINT) {
      const next = last + 1 === SURROGATES_START ? SURROGATES_END + 1 : last + 1;
      return points.join('') + String.fromCodePoint(next);
    }
  }
  return undefined;
}

const MAX_CODE_POINT = 0x10ffff;
const SURROGATES_START = 0xd800;
const SURROGATES_END = 0xdfff;
