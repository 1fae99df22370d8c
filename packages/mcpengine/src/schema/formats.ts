import { isValidRegex } from './meta.js';

/**
 * The `format`s MCPEngine asserts (MCP elicitation relies on email, uri, date and date-time). Each test sees
 * only strings; formats not listed here are annotations and never fail.
 */
export type FormatTest = (value: string) => boolean;

const DAYS_IN_MONTH = [0, 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function isLeapYear(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

const DATE = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/;

export function isDate(value: string): boolean {
  const m = DATE.exec(value);
  if (m === null) return false;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (month < 1 || month > 12 || day < 1) return false;
  return day <= (month === 2 && !isLeapYear(year) ? 28 : (DAYS_IN_MONTH[month] as number));
}

// RFC 3339 full-time: the offset is mandatory; `Z`, `T` are case-insensitive (§5.6 note).
const TIME = /^([0-9]{2}):([0-9]{2}):([0-9]{2})(?:\.[0-9]+)?(?:[zZ]|([+-])([0-9]{2}):([0-9]{2}))$/;

export function isTime(value: string): boolean {
  const m = TIME.exec(value);
  if (m === null) return false;
  const hour = Number(m[1]);
  const minute = Number(m[2]);
  const second = Number(m[3]);
  const sign = m[4] === '-' ? -1 : 1;
  const offsetHour = m[5] === undefined ? 0 : Number(m[5]);
  const offsetMinute = m[6] === undefined ? 0 : Number(m[6]);
  if (hour > 23 || minute > 59 || second > 60 || offsetHour > 23 || offsetMinute > 59) return false;
  if (second < 60) return true;
  // A leap second exists only at 23:59:60 UTC.
  const utcMinutes = (((hour * 60 + minute - sign * (offsetHour * 60 + offsetMinute)) % 1440) + 1440) % 1440;
  return utcMinutes === 23 * 60 + 59;
}

export function isDateTime(value: string): boolean {
  const t = value.search(/[tT]/);
  return t === 10 && isDate(value.slice(0, t)) && isTime(value.slice(t + 1));
}

const DURATION_TIME = '(?:[0-9]+H(?:[0-9]+M(?:[0-9]+S)?)?|[0-9]+M(?:[0-9]+S)?|[0-9]+S)';
const DURATION_DATE = '(?:[0-9]+Y(?:[0-9]+M(?:[0-9]+D)?)?|[0-9]+M(?:[0-9]+D)?|[0-9]+D)';
// RFC 3339 Appendix A: units in order, weeks alone, a `T` only when a time part follows.
const DURATION = new RegExp(`^P(?:${DURATION_DATE}(?:T${DURATION_TIME})?|T${DURATION_TIME}|[0-9]+W)$`);

const OCTET = '(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])';
// No leading zeros: some parsers read them as octal.
const IPV4 = new RegExp(`^${OCTET}(?:\\.${OCTET}){3}$`);

export function isIpv4(value: string): boolean {
  return IPV4.test(value);
}

const HEX_GROUP = /^[0-9A-Fa-f]{1,4}$/;

export function isIpv6(value: string): boolean {
  let text = value;
  const lastColon = text.lastIndexOf(':');
  if (lastColon === -1) return false;
  // An embedded IPv4 address takes the place of the last two groups.
  const tail = text.slice(lastColon + 1);
  if (tail.includes('.')) {
    if (!isIpv4(tail)) return false;
    text = text.slice(0, lastColon + 1) + '0:0';
  }
  const gap = text.indexOf('::');
  const groupsOk = (part: string): number => {
    if (part === '') return 0;
    const groups = part.split(':');
    return groups.every((g) => HEX_GROUP.test(g)) ? groups.length : -1;
  };
  if (gap === -1) return groupsOk(text) === 8;
  if (text.indexOf('::', gap + 1) !== -1) return false;
  const left = groupsOk(text.slice(0, gap));
  const right = groupsOk(text.slice(gap + 2));
  return left >= 0 && right >= 0 && left + right <= 7;
}

const LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;

/** RFC 1123 host name: dot-separated labels of letters, digits and inner hyphens, at most 253 characters. */
export function isHostname(value: string): boolean {
  if (value.length === 0 || value.length > 253) return false;
  return value.split('.').every((label) => LABEL.test(label));
}

const ATEXT = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+";
const DOT_ATOM = new RegExp(`^${ATEXT}(?:\\.${ATEXT})*$`);
// eslint-disable-next-line no-control-regex
const QUOTED = /^"(?:[^"\\\r\n\u0000-\u001f]|\\[\u0020-\u007e])*"$/;

/** RFC 5321 mailbox: dot-atom or quoted local part, host name or address literal domain. */
export function isEmail(value: string): boolean {
  const at = value.lastIndexOf('@');
  if (at <= 0 || at === value.length - 1) return false;
  const local = value.slice(0, at);
  const domain = value.slice(at + 1);
  if (local.length > 64 || !(DOT_ATOM.test(local) || QUOTED.test(local))) return false;
  if (domain.startsWith('[') && domain.endsWith(']')) {
    const literal = domain.slice(1, -1);
    return literal.startsWith('IPv6:') ? isIpv6(literal.slice(5)) : isIpv4(literal);
  }
  return isHostname(domain);
}

// RFC 3986 Appendix A, as regular expressions built from the ABNF.
const UNRESERVED = 'A-Za-z0-9\\-._~';
const SUB_DELIMS = "!$&'()*+,;=";
const PCT = '%[0-9A-Fa-f]{2}';
const PCHAR = `(?:[${UNRESERVED}${SUB_DELIMS}:@]|${PCT})`;
const USERINFO = `(?:[${UNRESERVED}${SUB_DELIMS}:]|${PCT})*`;
const REG_NAME = `(?:[${UNRESERVED}${SUB_DELIMS}]|${PCT})*`;
const IP_LITERAL = `\\[(?:[0-9A-Fa-f:.]+|[vV][0-9A-Fa-f]+\\.[${UNRESERVED}${SUB_DELIMS}:]+)\\]`;
const AUTHORITY = `(?:${USERINFO}@)?(?:${IP_LITERAL}|${REG_NAME})(?::[0-9]*)?`;
const SEGMENT = `${PCHAR}*`;
const PATH_ABEMPTY = `(?:/${SEGMENT})*`;
const PATH_ABSOLUTE = `/(?:${PCHAR}+(?:/${SEGMENT})*)?`;
const PATH_ROOTLESS = `${PCHAR}+(?:/${SEGMENT})*`;
const PATH_NOSCHEME = `(?:[${UNRESERVED}${SUB_DELIMS}@]|${PCT})+(?:/${SEGMENT})*`;
const QUERY = `(?:${PCHAR}|[/?])*`;
const TAIL = `(?:\\?${QUERY})?(?:#${QUERY})?`;
const SCHEME = '[A-Za-z][A-Za-z0-9+.-]*';
const URI = new RegExp(
  `^${SCHEME}:(?://${AUTHORITY}${PATH_ABEMPTY}|${PATH_ABSOLUTE}|${PATH_ROOTLESS})?${TAIL}$`,
);
const RELATIVE_REF = new RegExp(
  `^(?://${AUTHORITY}${PATH_ABEMPTY}|${PATH_ABSOLUTE}|${PATH_NOSCHEME})?${TAIL}$`,
);

// The regular expressions above accept any hex/colon/dot run in brackets; the address itself is checked here.
const BRACKETED_HOST = /^(?:[A-Za-z][A-Za-z0-9+.-]*:)?\/\/(?:[^/?#@]*@)?\[([^\]/?#]*)\]/;

function ipLiteralOk(value: string): boolean {
  const m = BRACKETED_HOST.exec(value);
  if (m === null) return true;
  const literal = m[1] as string;
  return /^[vV][0-9A-Fa-f]+\./.test(literal) || isIpv6(literal);
}

export function isUri(value: string): boolean {
  return URI.test(value) && ipLiteralOk(value);
}

export function isUriReference(value: string): boolean {
  return (URI.test(value) || RELATIVE_REF.test(value)) && ipLiteralOk(value);
}

const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const JSON_POINTER = /^(?:\/(?:[^~/]|~[01])*)*$/;
const RELATIVE_JSON_POINTER = /^(?:0|[1-9][0-9]*)(?:#|(?:\/(?:[^~/]|~[01])*)*)$/;
// RFC 6570: literals outside braces; inside, an optional operator and comma-separated varspecs.
const VARCHAR = `(?:[A-Za-z0-9_]|${PCT})`;
const VARSPEC = `${VARCHAR}(?:\\.?${VARCHAR})*(?::[1-9][0-9]{0,3}|\\*)?`;
const LITERAL = `(?:[^\\u0000-\\u0020"'%<>\\\\^\`{|}]|${PCT})`;
const URI_TEMPLATE = new RegExp(`^(?:${LITERAL}|\\{[+#./;?&=,!@|]?${VARSPEC}(?:,${VARSPEC})*\\})*$`);

export const FORMATS: Readonly<Record<string, FormatTest>> = {
  'date-time': isDateTime,
  date: isDate,
  time: isTime,
  duration: (v) => DURATION.test(v),
  email: isEmail,
  hostname: isHostname,
  ipv4: isIpv4,
  ipv6: isIpv6,
  uri: isUri,
  'uri-reference': isUriReference,
  'uri-template': (v) => URI_TEMPLATE.test(v),
  uuid: (v) => UUID.test(v),
  'json-pointer': (v) => JSON_POINTER.test(v),
  'relative-json-pointer': (v) => RELATIVE_JSON_POINTER.test(v),
  regex: isValidRegex,
};
