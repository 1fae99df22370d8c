/**
 * Turning exchanges into evidence: the exact text sent and received (with HTTP status and headers on HTTP),
 * bounded in size, with secrets removed.
 */
import type { Evidence } from './outcomes.js';
import type { CallResult, HttpInfo, RawResult, Received } from '@mcpengine/wire';

const MAX_TEXT = 4_000;

let secrets: readonly string[] = [];

/** Values that must never appear in a report (bearer tokens, header values the user marked sensitive). */
export function registerSecrets(values: readonly string[]): void {
  secrets = values.filter((value) => value.length >= 4);
}

export function redact(text: string): string {
  let out = text;
  for (const secret of secrets) out = out.split(secret).join('«redacted»');
  return out;
}

export function clip(text: string, max = MAX_TEXT): string {
  const safe = redact(text);
  return safe.length <= max ? safe : `${safe.slice(0, max)}… (${safe.length - max} more characters)`;
}

const SENSITIVE_HEADERS = new Set(['authorization', 'cookie', 'proxy-authorization', 'x-api-key']);

function headerLines(headers: Readonly<Record<string, string>>): string[] {
  return Object.entries(headers).map(
    ([name, value]) => `${name}: ${SENSITIVE_HEADERS.has(name.toLowerCase()) ? '«redacted»' : value}`,
  );
}

export function httpRequestText(http: HttpInfo): string {
  const lines = [`${http.method} ${http.url}`, ...headerLines(http.requestHeaders)];
  return clip(
    http.requestBody === undefined ? lines.join('\n') : `${lines.join('\n')}\n\n${http.requestBody}`,
  );
}

export function httpResponseText(http: HttpInfo): string {
  if (http.status === 0) return '(no HTTP response)';
  const lines = [`HTTP ${http.status}`, ...headerLines(http.headers)];
  return clip(http.body === '' ? lines.join('\n') : `${lines.join('\n')}\n\n${http.body}`);
}

/** Evidence for a request/response exchange. */
export function callEvidence(call: CallResult, label?: string, note?: string): Evidence {
  const sent = call.http ? httpRequestText(call.http) : clip(call.sentText);
  let received: string;
  if (call.http) received = httpResponseText(call.http);
  else if (call.responseText !== undefined) received = clip(call.responseText);
  else if (call.failure === 'timeout') received = `(no response within ${call.elapsedMs} ms)`;
  else
    received = `(the connection closed without a response${call.closedBecause === undefined ? '' : `: ${call.closedBecause}`})`;
  if (!call.http && call.during.length > 0 && call.responseText === undefined) {
    received = `${received}\nother messages received:\n${clip(call.during.map((r) => r.text).join('\n'), 1500)}`;
  }
  return {
    ...(label === undefined ? {} : { label }),
    sent,
    received,
    ...(note === undefined ? {} : { note }),
  };
}

/** Evidence for raw text sent and whatever came back. */
export function rawEvidence(raw: RawResult, label?: string, note?: string): Evidence {
  const sent = raw.http ? httpRequestText(raw.http) : clip(raw.sentText);
  const received = raw.http
    ? httpResponseText(raw.http)
    : raw.received.length === 0
      ? raw.timedOut
        ? '(nothing received within the time limit)'
        : '(nothing received)'
      : clip(raw.received.map((r: Received) => r.text).join('\n'));
  return {
    ...(label === undefined ? {} : { label }),
    sent,
    received,
    ...(note === undefined ? {} : { note }),
  };
}

export function messagesEvidence(received: readonly Received[], label: string, note?: string): Evidence {
  return {
    label,
    received: clip(received.map((r) => r.text).join('\n')),
    ...(note === undefined ? {} : { note }),
  };
}

/** Short JSON for messages in failure texts. */
export function brief(value: unknown, max = 200): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return clip(text ?? String(value), max);
}
