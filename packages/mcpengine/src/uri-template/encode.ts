/**
 * Percent-encoding for RFC 6570 expansion: the "U" set (unreserved only) and the "U+R" set (unreserved,
 * reserved and existing pct-encoded triplets), as used by the `+` and `#` operators and by literals.
 */

const HEX = '0123456789ABCDEF';

/** RFC 3986 gen-delims and sub-delims. */
export const RESERVED_CHARS = ":/?#[]@!$&'()*+,;=";

function asciiTable(chars: string): Uint8Array {
  const table = new Uint8Array(128);
  for (let i = 0; i < chars.length; i++) table[chars.charCodeAt(i)] = 1;
  return table;
}

const UNRESERVED_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~';
const UNRESERVED = asciiTable(UNRESERVED_CHARS);
const UNRESERVED_OR_RESERVED = asciiTable(UNRESERVED_CHARS + RESERVED_CHARS);

export function isHexDigit(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 70) || (code >= 97 && code <= 102);
}

function isTripletAt(value: string, i: number): boolean {
  return (
    value.charCodeAt(i) === 0x25 && isHexDigit(value.charCodeAt(i + 1)) && isHexDigit(value.charCodeAt(i + 2))
  );
}

/** Percent-encodes every UTF-8 byte of a run of non-ASCII text (lone surrogates become U+FFFD). */
function encodeNonAscii(run: string): string {
  const bytes = Buffer.from(run, 'utf8');
  let out = '';
  for (const byte of bytes) out += '%' + HEX[byte >> 4]! + HEX[byte & 15]!;
  return out;
}

/**
 * Encodes `value` so that only characters of the allowed set remain. With `allowReserved`, reserved characters
 * and well-formed pct-encoded triplets pass through untouched (RFC 6570 section 3.2.1).
 */
export function pctEncode(value: string, allowReserved: boolean): string {
  const table = allowReserved ? UNRESERVED_OR_RESERVED : UNRESERVED;
  const n = value.length;
  let i = 0;
  // Fast path: most values (ids, names) need no encoding at all.
  while (i < n) {
    const c = value.charCodeAt(i);
    if (c >= 128 || table[c] === 0) break;
    i++;
  }
  if (i === n) return value;

  let out = value.slice(0, i);
  while (i < n) {
    const c = value.charCodeAt(i);
    if (c < 128) {
      if (table[c] === 1) {
        let end = i + 1;
        while (end < n) {
          const d = value.charCodeAt(end);
          if (d >= 128 || table[d] === 0) break;
          end++;
        }
        out += value.slice(i, end);
        i = end;
      } else if (allowReserved && isTripletAt(value, i)) {
        out += value.slice(i, i + 3);
        i += 3;
      } else {
        out += '%' + HEX[c >> 4]! + HEX[c & 15]!;
        i++;
      }
    } else {
      let end = i + 1;
      while (end < n && value.charCodeAt(end) >= 128) end++;
      out += encodeNonAscii(value.slice(i, end));
      i = end;
    }
  }
  return out;
}

/**
 * The first `maxLength` characters of `value`. Characters are Unicode code points, so a surrogate pair is never
 * split; with `allowReserved` a pct-encoded triplet also counts as one character (RFC 6570 section 2.4.1).
 */
export function truncateCharacters(value: string, maxLength: number, allowReserved: boolean): string {
  let i = 0;
  let count = 0;
  while (i < value.length && count < maxLength) {
    const c = value.charCodeAt(i);
    if (allowReserved && isTripletAt(value, i)) {
      i += 3;
    } else if (c >= 0xd800 && c <= 0xdbff && i + 1 < value.length) {
      const d = value.charCodeAt(i + 1);
      i += d >= 0xdc00 && d <= 0xdfff ? 2 : 1;
    } else {
      i++;
    }
    count++;
  }
  return value.slice(0, i);
}
