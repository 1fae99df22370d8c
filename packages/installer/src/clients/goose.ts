/**
 * Goose: `config.yaml` under `$XDG_CONFIG_HOME/goose` (`~/.config/goose` on macOS and Linux) or
 * `%APPDATA%\Block\goose\config` on Windows; servers are `extensions` entries keyed by name, with `cmd`, `args`,
 * `envs` (stdio) or `uri`, `headers` (`type: streamable_http` or `sse`). Variables are passed by name in
 * `env_keys` (Goose reads each from its secret store or its environment); other values are literal.
 */
import { appData, joinPath, xdgConfigHome, type PathContext } from '../platform.js';
import { RefusalError, type ServerSpec } from '../model.js';
import { literalText, showTemplate, soleReference, type Template } from '../template.js';
import {
  asObject,
  launchLine,
  readRecord,
  readStrings,
  remoteParts,
  type ClientDescriptor,
} from './descriptor.js';

const NAME = 'Goose';
const TIMEOUT_SECONDS = 300;

function userPath(ctx: PathContext): string {
  return ctx.platform === 'win32'
    ? joinPath(appData(ctx), 'Block', 'goose', 'config', 'config.yaml')
    : joinPath(xdgConfigHome(ctx), 'goose', 'config.yaml');
}

export const goose: ClientDescriptor = {
  id: 'goose',
  name: NAME,
  format: 'yaml',
  sources: [
    'https://block.github.io/goose/docs/getting-started/using-extensions',
    'https://block.github.io/goose/docs/guides/config-files',
  ],
  scopes: { user: userPath },
  serversKey: ['extensions'],
  transports: ['stdio', 'http', 'sse'],
  secrets: '`env_keys` (stdio, same name: read from the keyring or environment)',
  inheritEnv: true,
  render(spec, ctx) {
    const name = ctx.name;
    if (spec.transport === 'stdio') {
      const line = launchLine(spec, ctx.platform);
      const envs: Record<string, string> = {};
      const envKeys: string[] = [];
      for (const [key, value] of Object.entries(spec.env)) {
        const reference = soleReference(value);
        const text = literalText(value);
        if (reference !== undefined && reference.env === key) envKeys.push(key);
        else if (text !== undefined) envs[key] = text;
        else
          throw new RefusalError(
            `Goose reads a variable only under its own name (env_keys): env ${key}=${showTemplate(value)} cannot be written; use --env ${key}, or pass a value`,
          );
      }
      const args = line.args.map((arg, i) => {
        const text = literalText(arg);
        if (text === undefined)
          throw new RefusalError(
            `Goose does not expand variables in arguments (argument ${i + 1}: ${showTemplate(arg)})`,
          );
        return text;
      });
      return {
        entry: {
          name,
          type: 'stdio',
          cmd: line.command,
          args,
          envs,
          ...(envKeys.length === 0 ? {} : { env_keys: envKeys }),
          enabled: true,
          timeout: TIMEOUT_SECONDS,
          description: name,
        },
        notes: [],
      };
    }
    const { url, headers } = remoteParts(spec, undefined, NAME);
    return {
      entry: {
        name,
        type: spec.transport === 'sse' ? 'sse' : 'streamable_http',
        uri: url,
        headers,
        envs: {},
        enabled: true,
        timeout: TIMEOUT_SECONDS,
        description: name,
      },
      notes: [],
    };
  },
  isServerEntry: (entry) =>
    typeof entry === 'object' &&
    entry !== null &&
    ['stdio', 'sse', 'streamable_http'].includes(String((entry as Record<string, unknown>)['type'])),
  read(entry): ServerSpec {
    const object = asObject(entry, NAME);
    if (object['type'] === 'stdio' || typeof object['cmd'] === 'string') {
      if (typeof object['cmd'] !== 'string') throw new RefusalError('this Goose extension has no cmd');
      const env: Record<string, Template> = {};
      for (const [key, value] of Object.entries(readRecord(object['envs'], 'envs'))) env[key] = [value];
      for (const key of readStrings(object['env_keys'], 'env_keys')) env[key] = [{ env: key }];
      return {
        transport: 'stdio',
        command: object['cmd'],
        args: readStrings(object['args'], 'args').map((a) => [a]),
        env,
      };
    }
    if (typeof object['uri'] !== 'string')
      throw new RefusalError(
        `this Goose extension (type ${String(object['type'])}) is not an MCP server entry`,
      );
    const headers: Record<string, Template> = {};
    for (const [key, value] of Object.entries(readRecord(object['headers'], 'headers')))
      headers[key] = [value];
    return { transport: object['type'] === 'sse' ? 'sse' : 'http', url: [object['uri']], headers };
  },
};
