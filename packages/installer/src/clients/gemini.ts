/**
 * Gemini CLI: `~/.gemini/settings.json`, project `.gemini/settings.json`, `mcpServers`. Streamable HTTP is
 * `httpUrl` (every release reads it; newer ones also accept `url` + `type`), SSE is `url`. Values may refer to
 * variables as `$NAME` or `${NAME}`; we write `${NAME}`. Stdio servers run only in trusted folders, and inherit
 * Gemini's environment minus anything that looks like a credential (by name or value): what they need must be
 * in `env` (checked in @google/gemini-cli-core 0.61.0, `services/environmentSanitization.js`).
 */
import { homeDir, joinPath } from '../platform.js';
import {
  ALL_FIELDS,
  optional,
  readStandard,
  remoteParts,
  stdioParts,
  type ClientDescriptor,
  type ReferencePolicy,
} from './descriptor.js';
import { SHELL_STYLE } from './syntaxes.js';

const NAME = 'Gemini CLI';

/** Names Gemini CLI always passes down, and the name and value patterns it withholds from MCP servers. */
const ALWAYS = new Set([
  'PATH',
  'SYSTEMROOT',
  'COMSPEC',
  'PATHEXT',
  'WINDIR',
  'TEMP',
  'TMP',
  'USERPROFILE',
  'SYSTEMDRIVE',
  'HOME',
  'LANG',
  'SHELL',
  'TMPDIR',
  'USER',
  'LOGNAME',
  'TERM',
  'COLORTERM',
]);
const NEVER = new Set([
  'CLIENT_ID',
  'DB_URI',
  'CONNECTION_STRING',
  'AWS_DEFAULT_REGION',
  'AZURE_CLIENT_ID',
  'AZURE_TENANT_ID',
  'SLACK_WEBHOOK_URL',
  'TWILIO_ACCOUNT_SID',
  'DATABASE_URL',
  'GOOGLE_CLOUD_PROJECT',
  'GOOGLE_CLOUD_ACCOUNT',
  'FIREBASE_PROJECT_ID',
]);
const SECRET_NAME = /TOKEN|SECRET|PASSWORD|PASSWD|KEY|AUTH|CREDENTIAL|CREDS|PRIVATE|CERT/i;
const SECRET_VALUE =
  /-----BEGIN (RSA|OPENSSH|EC|PGP) PRIVATE KEY-----|-----BEGIN CERTIFICATE-----|(https?|ftp|smtp):\/\/[^:\s]+:[^@\s]+@|(ghp|gho|ghu|ghs|ghr|github_pat)_[a-zA-Z0-9_]{36,}|AIzaSy[a-zA-Z0-9_\\-]{33}|AKIA[A-Z0-9]{16}|eyJ[a-zA-Z0-9_-]*\.[a-zA-Z0-9_-]*\.[a-zA-Z0-9_-]*|(s|r)k_(live|test)_[0-9a-zA-Z]{24}|xox[abpr]-[a-zA-Z0-9-]+/i;

function passedDown(name: string, value: string): boolean {
  const key = name.toUpperCase();
  if (key.startsWith('GEMINI_CLI_')) return true;
  if (SECRET_VALUE.test(value)) return false;
  if (key.startsWith('GIT_CONFIG_') || ALWAYS.has(key)) return true;
  return !NEVER.has(key) && !SECRET_NAME.test(key);
}
const POLICY: ReferencePolicy = { syntax: SHELL_STYLE, fields: ALL_FIELDS };

export const gemini: ClientDescriptor = {
  id: 'gemini',
  name: NAME,
  format: 'jsonc',
  sources: ['https://geminicli.com/docs/tools/mcp-server', 'https://geminicli.com/docs/cli/configuration'],
  scopes: {
    user: (ctx) => joinPath(homeDir(ctx), '.gemini', 'settings.json'),
    project: (ctx) => joinPath(ctx.cwd, '.gemini', 'settings.json'),
  },
  serversKey: ['mcpServers'],
  transports: ['stdio', 'http', 'sse'],
  secrets: '`$NAME` or `${NAME}` (settings values)',
  inheritEnv: passedDown,
  render(spec, ctx) {
    if (spec.transport === 'stdio') {
      const { command, args, env } = stdioParts(spec, ctx, POLICY, NAME);
      return {
        entry: {
          command,
          args,
          ...optional('env', env),
          ...(spec.cwd === undefined ? {} : { cwd: spec.cwd }),
        },
        notes: ['Gemini CLI starts stdio servers only in trusted folders (gemini trust)'],
      };
    }
    const { url, headers } = remoteParts(spec, POLICY, NAME);
    return {
      entry: { [spec.transport === 'sse' ? 'url' : 'httpUrl']: url, ...optional('headers', headers) },
      notes: [],
    };
  },
  read: (entry) =>
    readStandard(entry, NAME, POLICY, (object) => {
      if (typeof object['httpUrl'] === 'string') return { url: object['httpUrl'], transport: 'http' };
      if (typeof object['url'] === 'string')
        return { url: object['url'], transport: object['type'] === 'http' ? 'http' : 'sse' };
      return undefined;
    }),
};
