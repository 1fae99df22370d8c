/**
 * VS Code (GitHub Copilot agent mode): `mcp.json` in the user profile (`Code/User/mcp.json` under Application
 * Support, %APPDATA% or $XDG_CONFIG_HOME) or `.vscode/mcp.json`; the key is **`servers`**, not `mcpServers`
 * (the old `settings.json` → `mcp.servers` location is obsolete). Secrets become `inputs` of type
 * `promptString` with `password: true`, referenced as `${input:ID}`: VS Code prompts once and keeps the value in
 * its secret storage. Other references use `${env:NAME}`.
 */
import { getIn, isObject, type ConfigDocument } from '../documents/document.js';
import { appConfigDir, joinPath } from '../platform.js';
import { referenceSyntax, writeTemplate, type ReferenceSyntax, type Template } from '../template.js';
import {
  ALL_FIELDS,
  optional,
  readStandard,
  type ClientDescriptor,
  type ReferencePolicy,
  launchLine,
} from './descriptor.js';

const NAME = 'VS Code';

/** Writes secrets as inputs and the rest as `${env:NAME}`; reads both back. */
const SYNTAX: ReferenceSyntax = referenceSyntax(
  '${env:NAME} or ${input:ID}',
  (reference) => (reference.secret ? `\${input:${reference.env}}` : `\${env:${reference.env}}`),
  /\$\{(env|input):([A-Za-z_][A-Za-z0-9_.-]*)\}/,
  (match) => (match[1] === 'input' ? { input: match[2]! } : { env: match[2]! }),
);
const POLICY: ReferencePolicy = { syntax: SYNTAX, fields: ALL_FIELDS };

interface Input {
  readonly type: 'promptString';
  readonly id: string;
  readonly description: string;
  readonly password: true;
}

function secretsOf(templates: readonly Template[]): string[] {
  const names = new Set<string>();
  for (const template of templates)
    for (const part of template)
      if (typeof part !== 'string' && 'env' in part && part.secret) names.add(part.env);
  return [...names];
}

function inputIdsOf(entry: unknown): Set<string> {
  const ids = new Set<string>();
  for (const match of JSON.stringify(entry ?? null).matchAll(/\$\{input:([A-Za-z_][A-Za-z0-9_.-]*)\}/g))
    ids.add(match[1]!);
  return ids;
}

export const vscode: ClientDescriptor = {
  id: 'vscode',
  name: NAME,
  format: 'jsonc',
  sources: [
    'https://code.visualstudio.com/docs/copilot/reference/mcp-configuration',
    'https://code.visualstudio.com/docs/copilot/customization/mcp-servers',
  ],
  scopes: {
    user: (ctx) => joinPath(appConfigDir(ctx, 'Code'), 'User', 'mcp.json'),
    project: (ctx) => joinPath(ctx.cwd, '.vscode', 'mcp.json'),
  },
  serversKey: ['servers'],
  transports: ['stdio', 'http', 'sse'],
  secrets:
    '`inputs` (`promptString`, `password: true`) as `${input:ID}` for secrets; `${env:NAME}` otherwise',
  inheritEnv: true,
  sseFallback: true,
  render(spec, ctx) {
    const write = (template: Template) => writeTemplate(template, POLICY.syntax);
    const record = (values: Readonly<Record<string, Template>>) =>
      Object.fromEntries(Object.entries(values).map(([key, value]) => [key, write(value)]));
    if (spec.transport === 'stdio') {
      const line = launchLine(spec, ctx.platform);
      const secrets = secretsOf([...line.args, ...Object.values(spec.env)]);
      return {
        entry: {
          type: 'stdio',
          command: line.command,
          args: line.args.map(write),
          ...optional('env', record(spec.env)),
        },
        notes: secretNotes(secrets),
      };
    }
    const secrets = secretsOf([spec.url, ...Object.values(spec.headers)]);
    return {
      entry: { type: spec.transport, url: write(spec.url), ...optional('headers', record(spec.headers)) },
      notes: secretNotes(secrets),
    };
  },
  read: (entry) =>
    readStandard(entry, NAME, POLICY, (object) =>
      typeof object['url'] === 'string'
        ? { url: object['url'], transport: object['type'] === 'sse' ? 'sse' : 'http' }
        : undefined,
    ),
  afterSet(document, name, entry) {
    const wanted = inputIdsOf(entry);
    if (wanted.size === 0) return;
    const inputs = document.get(['inputs']);
    const existing = Array.isArray(inputs) ? inputs : [];
    const known = new Set(existing.filter(isObject).map((input) => input['id']));
    const added: Input[] = [...wanted]
      .filter((id) => !known.has(id))
      .map((id) => ({
        type: 'promptString',
        id,
        description: `${id} for the ${name} MCP server`,
        password: true,
      }));
    if (added.length > 0) document.set(['inputs'], [...existing, ...added]);
  },
  afterDelete(document, _name, removed) {
    const inputs = document.get(['inputs']);
    if (!Array.isArray(inputs)) return;
    const stillUsed = inputIdsOf(getIn(document.data(), ['servers']));
    const orphans = inputIdsOf(removed);
    const kept = inputs.filter(
      (input) => !isObject(input) || !orphans.has(String(input['id'])) || stillUsed.has(String(input['id'])),
    );
    if (kept.length !== inputs.length) document.set(['inputs'], kept);
  },
};

function secretNotes(secrets: readonly string[]): string[] {
  return secrets.map(
    (id) =>
      `VS Code asks for ${id} when it first starts the server and keeps it in its secret storage (input "${id}")`,
  );
}

export type { ConfigDocument };
