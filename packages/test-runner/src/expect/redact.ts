/**
 * Snapshot redaction: values that change from run to run are replaced by stable placeholders before a snapshot is
 * compared or written — UUIDs, ISO timestamps and dates, epoch times in time-named members, long hex or
 * base64-looking ids in id-named members, and session/request ids. Text blocks are redacted inside, so
 * "created 2026-01-02T03:04:05Z" snapshots as "created [timestamp]".
 */
const PATTERNS: readonly [RegExp, string][] = [
  [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '[uuid]'],
  [/\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?\b/g, '[timestamp]'],
  [/\b\d{4}-\d{2}-\d{2}\b/g, '[date]'],
  [
    /\b(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT\b/g,
    '[timestamp]',
  ],
  [/\b[0-9a-f]{24,}\b/gi, '[id]'],
];

const TIME_KEY =
  /(^|_)(time|timestamp|date)$|At$|(^|[a-z])(Time|Timestamp|Date)$|^(created|updated|expires|modified)/;
const ID_KEY = /(^id$|Id$|_id$|^(session|request|trace|span|etag|cursor|nextCursor|requestState|taskId)$)/i;

export function redactString(text: string): string {
  let out = text;
  for (const [pattern, placeholder] of PATTERNS) out = out.replace(pattern, placeholder);
  return out;
}

function looksRandom(value: string): boolean {
  return (
    value.length >= 16 && /^[A-Za-z0-9_\-+/=.:]+$/.test(value) && /\d/.test(value) && /[A-Za-z]/.test(value)
  );
}

export function redact(value: unknown, key = ''): unknown {
  if (Array.isArray(value)) return value.map((item) => redact(item));
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redact(v, k)]));
  if (typeof value === 'number' && TIME_KEY.test(key) && value > 946_684_800) return '[timestamp]';
  if (typeof value === 'string') {
    // Patterns first, so the same value always gets the same placeholder whatever member holds it.
    const redacted = redactString(value);
    if (redacted !== value) return redacted;
    if (ID_KEY.test(key) && looksRandom(value)) return '[id]';
    if (TIME_KEY.test(key) && !Number.isNaN(Date.parse(value))) return '[timestamp]';
    return value;
  }
  return value;
}
