/**
 * Codex (CLI, IDE extension and app share it): `$CODEX_HOME/config.toml` (default `~/.codex`), project
 * `.codex/config.toml` (read for trusted projects only), one `[mcp_servers.<name>]` table per server. There is
 * no `type` key — Codex tells stdio from Streamable HTTP by `command` vs `url`, and rejects a `type` as an
 * invalid transport — and there is no HTTP+SSE client. Values are literal; variables are passed by name:
 * `env_vars = ["NAME"]` forwards a variable to a stdio server, `bearer_token_env_var` and `env_http_headers`
 * fill HTTP headers (an inline `bearer_token` is rejected). Stdio servers inherit only a short list of
 * variables (below) plus those.
 */
import { envVar, homeDir, joinPath, type PathContext } from '../platform.js';
import { RefusalError, type ServerSpec } from '../model.js';
import { literalText, showTemplate, soleReference, type Template } from '../template.js';
import {
  asObject,
  launchLine,
  optional,
  readRecord,
  readStrings,
  refuseTransport,
  type ClientDescriptor,
} from './descriptor.js';

const NAME = 'Codex';

/** What Codex passes to a stdio server from its own environment besides `env` and `env_vars`. */
const INHERITED = [
  'HOME',
  'LOGNAME',
  'PATH',
  'SHELL',
  'USER',
  '__CF_USER_TEXT_ENCODING',
  'LANG',
  'LC_ALL',
  'TERM',
  'TMPDIR',
  'TZ',
  'PATHEXT',
  'USERNAME',
  'USERDOMAIN',
  'USERPROFILE',
  'TEMP',
  'TMP',
  'APPDATA',
  'LOCALAPPDATA',
  'HOMEDRIVE',
  'HOMEPATH',
  'PROGRAMFILES',
  'PROGRAMDATA',
  'SYSTEMROOT',
  'SYSTEMDRIVE',
  'COMSPEC',
  'WINDIR',
];

function userPath(ctx: PathContext): string {
  return joinPath(envVar(ctx, 'CODEX_HOME') ?? joinPath(homeDir(ctx), '.codex'), 'config.toml');
}

function literalOrRefuse(template: Template, what: string): string {
  const text = literalText(template);
  if (text === undefined)
    throw new RefusalError(
      `Codex does not expand variables in ${what} (${showTemplate(template)}); it passes variables by name only (env_vars, bearer_token_env_var, env_http_headers)`,
    );
  return text;
}

export const codex: ClientDescriptor = {
  id: 'codex',
  name: NAME,
  format: 'toml',
  sources: [
    'https://developers.openai.com/codex/mcp',
    'https://developers.openai.com/codex/config-reference',
    'https://github.com/openai/codex/issues/2320 (no SSE)',
  ],
  scopes: { user: userPath, project: (ctx) => joinPath(ctx.cwd, '.codex', 'config.toml') },
  serversKey: ['mcp_servers'],
  transports: ['stdio', 'http'],
  secrets: '`env_vars` (stdio, same name), `bearer_token_env_var`, `env_http_headers` (HTTP)',
  scopeNotes: { project: 'Codex reads .codex/config.toml only in projects you have marked as trusted' },
  inheritEnv: INHERITED,
  render(spec, ctx) {
    if (spec.transport === 'sse')
      refuseTransport(NAME, 'sse', 'Codex speaks Streamable HTTP only (it has no HTTP+SSE client)');
    if (spec.transport === 'stdio') {
      const line = launchLine(spec, ctx.platform);
      const env: Record<string, string> = {};
      const envVars: string[] = [];
      for (const [key, value] of Object.entries(spec.env)) {
        const reference = soleReference(value);
        if (reference !== undefined && reference.env === key) envVars.push(key);
        else if (reference !== undefined)
          throw new RefusalError(
            `Codex forwards a variable only under its own name (env_vars): env ${key}=${showTemplate(value)} cannot be written; use --env ${key} to forward ${key}, or pass a value`,
          );
        else env[key] = literalOrRefuse(value, `env ${key}`);
      }
      return {
        entry: {
          command: line.command,
          args: line.args.map((arg, i) => literalOrRefuse(arg, `argument ${i + 1}`)),
          ...(envVars.length === 0 ? {} : { env_vars: envVars }),
          ...(spec.cwd === undefined ? {} : { cwd: spec.cwd }),
          ...optional('env', env),
        },
        notes: [],
      };
    }
    const httpHeaders: Record<string, string> = {};
    const envHeaders: Record<string, string> = {};
    let bearer: string | undefined;
    for (const [name, value] of Object.entries(spec.headers)) {
      const reference = soleReference(value.slice(1));
      if (name.toLowerCase() === 'authorization' && value[0] === 'Bearer ' && value.length === 2 && reference)
        bearer = reference.env;
      else if (soleReference(value) !== undefined) envHeaders[name] = soleReference(value)!.env;
      else if (literalText(value) !== undefined) httpHeaders[name] = literalText(value)!;
      else
        throw new RefusalError(
          `Codex cannot write header ${name}: ${showTemplate(value)} (a header is a literal, a whole variable, or "Bearer \${VAR}")`,
        );
    }
    return {
      entry: {
        url: literalOrRefuse(spec.url, 'the URL'),
        ...(bearer === undefined ? {} : { bearer_token_env_var: bearer }),
        ...optional('http_headers', httpHeaders),
        ...optional('env_http_headers', envHeaders),
      },
      notes: [],
    };
  },
  read(entry): ServerSpec {
    const object = asObject(entry, NAME);
    if (typeof object['command'] === 'string') {
      const env: Record<string, Template> = {};
      for (const [key, value] of Object.entries(readRecord(object['env'], 'env'))) env[key] = [value];
      for (const key of readStrings(object['env_vars'], 'env_vars')) env[key] = [{ env: key }];
      const cwd = object['cwd'];
      return {
        transport: 'stdio',
        command: object['command'],
        args: readStrings(object['args'], 'args').map((arg) => [arg]),
        env,
        ...(typeof cwd === 'string' ? { cwd } : {}),
      };
    }
    if (typeof object['url'] !== 'string')
      throw new RefusalError('this Codex entry has neither command nor url');
    const headers: Record<string, Template> = {};
    for (const [key, value] of Object.entries(readRecord(object['http_headers'], 'http_headers')))
      headers[key] = [value];
    for (const [key, value] of Object.entries(readRecord(object['env_http_headers'], 'env_http_headers')))
      headers[key] = [{ env: value }];
    const bearer = object['bearer_token_env_var'];
    if (typeof bearer === 'string') headers['Authorization'] = ['Bearer ', { env: bearer }];
    return { transport: 'http', url: [object['url']], headers };
  },
};
