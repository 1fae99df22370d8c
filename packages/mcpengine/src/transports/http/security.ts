/**
 * Request checks that protect a local server before any MCP processing: Host and Origin validation against
 * DNS rebinding, and the media types a request sends and accepts.
 */

/** Loopback names accepted on any port unless the caller configures hosts. */
export const LOOPBACK_HOSTS: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

interface HostEntry {
  readonly hostname: string;
  /** Undefined: any port. */
  readonly port: string | undefined;
}

/** Splits `host[:port]` (IPv6 in brackets) into lower-case parts; undefined when malformed. */
export function parseHost(value: string): HostEntry | undefined {
  const host = value.trim().toLowerCase();
  const match = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::(\d{1,5}))?$/.exec(host);
  if (!match) return undefined;
  return { hostname: match[1]!, port: match[2] };
}

export class HostPolicy {
  private readonly hosts: HostEntry[] | undefined;
  private readonly origins: Set<string> | undefined;
  /** The last Host/Origin pair checked and its answer: a client sends the same pair with every request. */
  private lastHost: string | null = null;
  private lastOrigin: string | null = null;
  private lastAnswer: string | undefined | null = null;

  /**
   * `allowedHosts`: `host` (any port) or `host:port` entries; `false` turns the Host check off (for servers
   * behind a proxy that validates Host). `allowedOrigins`: exact origins (`https://app.example.com`); by default
   * an Origin is accepted when its scheme is http(s) and its host would pass the Host check.
   */
  constructor(allowedHosts: readonly string[] | false = LOOPBACK_HOSTS, allowedOrigins?: readonly string[]) {
    if (allowedHosts === false) {
      this.hosts = undefined;
    } else {
      this.hosts = allowedHosts.map((entry) => {
        const parsed = parseHost(entry);
        if (!parsed) throw new TypeError(`allowedHosts: ${JSON.stringify(entry)} is not host or host:port`);
        return parsed;
      });
    }
    this.origins = allowedOrigins ? new Set(allowedOrigins.map((o) => o.toLowerCase())) : undefined;
  }

  private hostAllowed(entry: HostEntry, list: HostEntry[]): boolean {
    return list.some((h) => h.hostname === entry.hostname && (h.port === undefined || h.port === entry.port));
  }

  /** Why the request must be refused (403), or undefined when its Host and Origin are acceptable. */
  check(host: string | null, origin: string | null): string | undefined {
    if (this.lastAnswer !== null && host === this.lastHost && origin === this.lastOrigin)
      return this.lastAnswer;
    const answer = this.decide(host, origin);
    this.lastHost = host;
    this.lastOrigin = origin;
    this.lastAnswer = answer;
    return answer;
  }

  private decide(host: string | null, origin: string | null): string | undefined {
    if (this.hosts) {
      const parsed = host === null ? undefined : parseHost(host);
      if (!parsed || !this.hostAllowed(parsed, this.hosts))
        return `Host ${JSON.stringify(host)} is not allowed`;
    }
    if (origin === null) return undefined;
    if (this.origins) {
      return this.origins.has(origin.trim().toLowerCase()) ? undefined : `Origin ${origin} is not allowed`;
    }
    let url: URL;
    try {
      url = new URL(origin);
    } catch {
      return `Origin ${JSON.stringify(origin)} is not allowed`;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return `Origin ${origin} is not allowed`;
    const parsed = parseHost(url.host);
    // Without a Host allow-list, only loopback origins are trusted by default.
    const list = this.hosts ?? LOOPBACK_HOSTS.map((h) => parseHost(h)!);
    if (!parsed || !this.hostAllowed(parsed, list)) return `Origin ${origin} is not allowed`;
    return undefined;
  }
}

/** One media range of an Accept header. */
interface MediaRange {
  /** `type/subtype`, lower case. */
  essence: string;
  type: string;
  subtype: string;
  q: number;
}

function parseAccept(header: string): MediaRange[] {
  const ranges: MediaRange[] = [];
  for (const part of header.split(',')) {
    const [range, ...params] = part.split(';');
    const [type, subtype] = (range ?? '').trim().toLowerCase().split('/');
    if (!type || !subtype) continue;
    let q = 1;
    for (const param of params) {
      const [key, value] = param.split('=');
      if (key?.trim().toLowerCase() === 'q') q = Number(value?.trim());
    }
    ranges.push({ essence: `${type}/${subtype}`, type, subtype, q: Number.isFinite(q) ? q : 0 });
  }
  return ranges;
}

/** The Accept header parsed last: a client sends the same one with every request. */
let lastAccept: { header: string; ranges: MediaRange[] } | undefined;

/** Whether an Accept header admits a media type (wildcards count; `q=0` excludes). */
export function accepts(header: string | null, mediaType: string): boolean {
  if (header === null) return false;
  let parsed = lastAccept;
  if (parsed === undefined || parsed.header !== header)
    lastAccept = parsed = { header, ranges: parseAccept(header) };
  for (const r of parsed.ranges) {
    if (r.q <= 0) continue;
    if (r.essence === mediaType) return true;
    if (r.type !== '*' && r.subtype !== '*') continue;
    const [type, subtype] = mediaType.split('/');
    if ((r.type === '*' || r.type === type) && (r.subtype === '*' || r.subtype === subtype)) return true;
  }
  return false;
}

/** The Content-Type checked last and its answer. */
let lastContentType: { header: string; json: boolean } | undefined;

/** Whether a Content-Type names JSON in UTF-8 (the only encoding JSON-RPC over MCP allows). */
export function isJsonContentType(header: string | null): boolean {
  if (header === null) return false;
  const last = lastContentType;
  if (last !== undefined && last.header === header) return last.json;
  const json = namesJsonUtf8(header);
  lastContentType = { header, json };
  return json;
}

function namesJsonUtf8(header: string): boolean {
  const [essence, ...params] = header.split(';');
  if (essence?.trim().toLowerCase() !== 'application/json') return false;
  for (const param of params) {
    const [key, value] = param.split('=');
    if (key?.trim().toLowerCase() === 'charset') {
      const charset = value?.trim().replace(/^"|"$/g, '').toLowerCase();
      if (charset !== 'utf-8' && charset !== 'utf8') return false;
    }
  }
  return true;
}
