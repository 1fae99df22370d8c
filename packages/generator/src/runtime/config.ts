/**
 * How calls are made: base URL, extra headers, limits. Defaults suit an interactive agent: answers within
 * 30 s, two retries for idempotent calls, 100 KB of response text at most.
 */

export interface RuntimeOptions {
  /** Overrides the description's `servers` (and the `<PREFIX>_BASE_URL` variable). */
  readonly baseUrl?: string;
  /** Sent with every request (`--header "Name: value"`); values are treated as secrets. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Environment the credentials are read from. Default: `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Per attempt. Default 30 s (`<PREFIX>_TIMEOUT_MS`). */
  readonly timeoutMs?: number;
  /** Retries after the first attempt on 408/429/5xx and network errors. Default 2 (`<PREFIX>_MAX_RETRIES`). */
  readonly maxRetries?: number;
  /** Retry POST and PATCH as well. Default false: only idempotent methods are retried. */
  readonly retryNonIdempotent?: boolean;
  /** First backoff step; doubled each retry, with full jitter. Default 500 ms. */
  readonly backoffMs?: number;
  /** Longest wait before a retry, `Retry-After` included; a longer `Retry-After` ends the retries. Default 30 s. */
  readonly maxBackoffMs?: number;
  /** Largest response text given to the client. Default 100,000 bytes. */
  readonly maxResponseBytes?: number;
  /** Largest response body read from the API. Default 10 MiB. */
  readonly maxDownloadBytes?: number;
  /** Cap on `max_pages` for paginated operations. Default 10. */
  readonly maxPages?: number;
  /** Characters of an error body quoted in an `isError` result. Default 2,000. */
  readonly errorExcerptChars?: number;
  /** The fetch used for API calls (tests, proxies). Default: the global fetch. */
  readonly fetch?: typeof fetch;
  /** Where diagnostics go (never stdout: stdio servers speak the protocol there). Default: stderr. */
  readonly log?: (line: string) => void;
  /** Shows an OAuth authorization URL to the user. Default: a line on stderr. */
  readonly openAuthorizationUrl?: (url: URL) => void | Promise<void>;
}

export interface ResolvedOptions {
  readonly baseUrl: string | undefined;
  /** Set when the base URL was given (option or variable): it then replaces per-operation servers too. */
  readonly baseUrlOverride: string | undefined;
  readonly headers: Readonly<Record<string, string>>;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly timeoutMs: number;
  readonly maxRetries: number;
  readonly retryNonIdempotent: boolean;
  readonly backoffMs: number;
  readonly maxBackoffMs: number;
  readonly maxResponseBytes: number;
  readonly maxDownloadBytes: number;
  readonly maxPages: number;
  readonly errorExcerptChars: number;
  readonly fetch: typeof fetch;
  readonly log: (line: string) => void;
  readonly openAuthorizationUrl: ((url: URL) => void | Promise<void>) | undefined;
}

/** A configuration problem found before serving: the message names the variable or option to set. */
export class ConfigurationError extends Error {
  override readonly name = 'ConfigurationError';
}

function numberFrom(
  env: Readonly<Record<string, string | undefined>>,
  name: string,
  fallback: number,
  min: number,
): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min)
    throw new ConfigurationError(`${name} must be a whole number ≥ ${min}, got ${JSON.stringify(raw)}`);
  return Number(raw);
}

export function resolveOptions(
  options: RuntimeOptions,
  envPrefix: string,
  describedBaseUrl: string | undefined,
): ResolvedOptions {
  const env = options.env ?? process.env;
  const given = options.baseUrl ?? nonEmpty(env[`${envPrefix}_BASE_URL`]);
  if (given !== undefined)
    checkBaseUrl(given, options.baseUrl !== undefined ? '--base-url' : `${envPrefix}_BASE_URL`);
  return {
    baseUrl: given ?? describedBaseUrl,
    baseUrlOverride: given,
    headers: options.headers ?? {},
    env,
    timeoutMs: options.timeoutMs ?? numberFrom(env, `${envPrefix}_TIMEOUT_MS`, 30_000, 1),
    maxRetries: options.maxRetries ?? numberFrom(env, `${envPrefix}_MAX_RETRIES`, 2, 0),
    retryNonIdempotent: options.retryNonIdempotent ?? env[`${envPrefix}_RETRY_NON_IDEMPOTENT`] === '1',
    backoffMs: options.backoffMs ?? 500,
    maxBackoffMs: options.maxBackoffMs ?? 30_000,
    maxResponseBytes:
      options.maxResponseBytes ?? numberFrom(env, `${envPrefix}_MAX_RESPONSE_BYTES`, 100_000, 1_000),
    maxDownloadBytes: options.maxDownloadBytes ?? 10 * 1024 * 1024,
    maxPages: options.maxPages ?? 10,
    errorExcerptChars: options.errorExcerptChars ?? 2_000,
    fetch: options.fetch ?? globalThis.fetch,
    log: options.log ?? ((line) => void process.stderr.write(`${line}\n`)),
    openAuthorizationUrl: options.openAuthorizationUrl,
  };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}

function checkBaseUrl(value: string, source: string): void {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigurationError(`${source}: not an absolute URL: ${JSON.stringify(value)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ConfigurationError(`${source}: must be http or https, got ${url.protocol}`);
}
