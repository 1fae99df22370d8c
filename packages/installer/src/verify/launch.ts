/**
 * What a client does with an entry: the exact process it starts (command, args, the environment it passes,
 * working directory) or the URL and headers it connects with, every variable reference resolved the way that
 * client resolves it, against the environment the client would run in.
 */
import { resolve } from 'node:path';
import type { ClientDescriptor } from '../clients/descriptor.js';
import type { ServerSpec } from '../model.js';
import { resolveTemplate, type Template } from '../template.js';

export type Launch =
  | {
      readonly kind: 'stdio';
      readonly command: string;
      readonly args: readonly string[];
      /** The whole environment of the server: what the client passes down, then the entry's variables. */
      readonly env: Readonly<Record<string, string>>;
      readonly cwd: string;
    }
  | {
      readonly kind: 'http' | 'sse';
      readonly url: string;
      /** Streamable HTTP first, HTTP+SSE when refused (clients that detect the transport). */
      readonly sseFallback: boolean;
      readonly headers: Readonly<Record<string, string>>;
    };

export interface ResolvedLaunch {
  readonly launch: Launch;
  /** Variables the entry refers to that the environment does not set. */
  readonly missing: readonly string[];
}

export function launchOf(
  client: ClientDescriptor,
  spec: ServerSpec,
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
): ResolvedLaunch {
  const missing = new Set<string>();
  const value = (template: Template): string => {
    const resolution = resolveTemplate(template, env);
    for (const name of resolution.missing) missing.add(name);
    return resolution.value;
  };
  const record = (values: Readonly<Record<string, Template>>): Record<string, string> =>
    Object.fromEntries(Object.entries(values).map(([key, template]) => [key, value(template)]));
  if (spec.transport === 'stdio') {
    return {
      launch: {
        kind: 'stdio',
        command: spec.command,
        args: spec.args.map(value),
        env: { ...inherited(env, client.inheritEnv), ...record(spec.env) },
        cwd: spec.cwd === undefined ? cwd : resolve(cwd, spec.cwd),
      },
      missing: [...missing],
    };
  }
  return {
    launch: {
      kind: spec.transport,
      url: value(spec.url),
      headers: record(spec.headers),
      sseFallback: spec.transport === 'http' && client.sseFallback === true,
    },
    missing: [...missing],
  };
}

/** The launch for messages, with header and env values hidden (they may be credentials). */
export function describeLaunch(launch: Launch): string {
  if (launch.kind === 'stdio') return [launch.command, ...launch.args].map(quote).join(' ');
  const headers = Object.keys(launch.headers);
  return `${withoutSecrets(launch.url)}${headers.length === 0 ? '' : ` (headers: ${headers.join(', ')})`}`;
}

/** A URL for messages: user info and query values (API keys often travel there) are hidden. */
function withoutSecrets(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return text;
  }
  if (url.username !== '' || url.password !== '') {
    url.username = '***';
    url.password = '';
  }
  for (const key of [...url.searchParams.keys()]) url.searchParams.set(key, '***');
  return url.toString();
}

function quote(word: string): string {
  return /^[A-Za-z0-9_./:=@%+,-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/** What the client passes down to a stdio server from the environment it runs in. */
function inherited(
  env: Readonly<Record<string, string | undefined>>,
  rule: true | readonly string[] | ((name: string, value: string) => boolean),
): Record<string, string> {
  const keep =
    rule === true ? () => true : typeof rule === 'function' ? rule : (name: string) => rule.includes(name);
  return Object.fromEntries(
    Object.entries(env).filter(
      (entry): entry is [string, string] => entry[1] !== undefined && keep(entry[0], entry[1]),
    ),
  );
}
