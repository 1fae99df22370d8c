/**
 * What the inspector connects to. A target comes only from the command line or a local config file, never
 * from the web page: the page can choose among targets, not make new commands.
 */
export interface StdioTarget {
  readonly kind: 'stdio';
  readonly command: string;
  readonly args: readonly string[];
  /** Variables for the server, over the inherited safe set. */
  readonly env?: Readonly<Record<string, string>>;
  readonly cwd?: string;
}

export type HttpTransportChoice = 'auto' | 'streamable-http' | 'sse';

export interface HttpTarget {
  readonly kind: 'http';
  readonly url: string;
  /** `auto`: Streamable HTTP, falling back to HTTP+SSE when the server refuses it. */
  readonly transport: HttpTransportChoice;
  readonly headers?: Readonly<Record<string, string>>;
}

export type Target = StdioTarget | HttpTarget;

/** The target as it may be shown or saved: environment values and header values hidden. */
export function describeTarget(target: Target): Record<string, unknown> {
  if (target.kind === 'stdio')
    return {
      kind: 'stdio',
      command: target.command,
      args: target.args,
      ...(target.env === undefined ? {} : { env: Object.keys(target.env) }),
      ...(target.cwd === undefined ? {} : { cwd: target.cwd }),
    };
  const url = new URL(target.url);
  url.username = '';
  url.password = '';
  return {
    kind: 'http',
    url: url.href,
    transport: target.transport,
    ...(target.headers === undefined ? {} : { headers: Object.keys(target.headers) }),
  };
}
