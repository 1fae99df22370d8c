/**
 * `components.securitySchemes` → authentication schemes with the environment variables they read:
 * `<PREFIX>_<SCHEME>_API_KEY`, `…_TOKEN`, `…_USERNAME`/`…_PASSWORD`, and for OAuth2 `…_ACCESS_TOKEN`,
 * `…_CLIENT_ID`, `…_CLIENT_SECRET`, `…_SCOPES`, `…_REFRESH_TOKEN`.
 */
import type { AuthScheme } from '../runtime/model.js';
import { envPrefix } from './names.js';

type Raw = Record<string, unknown>;

function isObject(value: unknown): value is Raw {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function absolute(value: unknown, base: string | undefined): string | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  try {
    const url = new URL(value, base);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** The schemes the runtime can use; others are reported (operations needing only those are still served). */
export function mapSchemes(
  schemes: unknown,
  prefix: string,
  base: string | undefined,
): { schemes: AuthScheme[]; unsupported: Map<string, string> } {
  const out: AuthScheme[] = [];
  const unsupported = new Map<string, string>();
  if (!isObject(schemes)) return { schemes: out, unsupported };
  const used = new Set<string>();
  for (const [name, raw] of Object.entries(schemes)) {
    if (!isObject(raw)) continue;
    let stem = `${prefix}_${envPrefix(name)}`;
    for (let i = 2; used.has(stem); i++) stem = `${prefix}_${envPrefix(name)}_${i}`;
    used.add(stem);
    const type = typeof raw['type'] === 'string' ? raw['type'].toLowerCase() : '';
    if (type === 'apikey') {
      const where = raw['in'];
      if (
        (where === 'header' || where === 'query' || where === 'cookie') &&
        typeof raw['name'] === 'string' &&
        raw['name'] !== ''
      )
        out.push({ name, type: 'apiKey', in: where, param: raw['name'], env: { key: `${stem}_API_KEY` } });
      else unsupported.set(name, 'an apiKey scheme without a valid "in" and "name"');
    } else if (type === 'http') {
      const scheme = typeof raw['scheme'] === 'string' ? raw['scheme'].trim() : '';
      if (scheme.toLowerCase() === 'basic')
        out.push({
          name,
          type: 'basic',
          env: { username: `${stem}_USERNAME`, password: `${stem}_PASSWORD` },
        });
      else if (/^[A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]*$/.test(scheme))
        out.push({
          name,
          type: 'bearer',
          scheme: scheme.toLowerCase() === 'bearer' ? 'Bearer' : scheme,
          env: { token: `${stem}_TOKEN` },
        });
      else
        unsupported.set(name, `an http scheme without a usable "scheme" (${JSON.stringify(raw['scheme'])})`);
    } else if (type === 'oauth2' || type === 'openidconnect') {
      const flows = isObject(raw['flows']) ? raw['flows'] : {};
      const cc = isObject(flows['clientCredentials']) ? flows['clientCredentials'] : undefined;
      const code = isObject(flows['authorizationCode']) ? flows['authorizationCode'] : undefined;
      const ccToken = absolute(cc?.['tokenUrl'], base);
      const codeAuth = absolute(code?.['authorizationUrl'], base);
      const codeToken = absolute(code?.['tokenUrl'], base);
      const scopes = new Set<string>();
      for (const flow of Object.values(flows))
        if (isObject(flow) && isObject(flow['scopes']))
          for (const scope of Object.keys(flow['scopes'])) scopes.add(scope);
      out.push({
        name,
        type: 'oauth2',
        ...(ccToken === undefined ? {} : { clientCredentials: { tokenUrl: ccToken } }),
        ...(codeAuth === undefined || codeToken === undefined
          ? {}
          : { authorizationCode: { authorizationUrl: codeAuth, tokenUrl: codeToken } }),
        scopes: [...scopes],
        env: {
          token: `${stem}_ACCESS_TOKEN`,
          clientId: `${stem}_CLIENT_ID`,
          clientSecret: `${stem}_CLIENT_SECRET`,
          scopes: `${stem}_SCOPES`,
          refreshToken: `${stem}_REFRESH_TOKEN`,
        },
      });
    } else
      unsupported.set(
        name,
        `security scheme type ${JSON.stringify(raw['type'])} (mutual TLS and others are not supported)`,
      );
  }
  return { schemes: out, unsupported };
}

/** An operation's security requirement: alternatives of scheme names, unusable alternatives removed. */
export function requirementOf(
  security: unknown,
  known: ReadonlySet<string>,
): { alternatives: string[][]; dropped: string[] } {
  if (!Array.isArray(security)) return { alternatives: [], dropped: [] };
  const alternatives: string[][] = [];
  const dropped: string[] = [];
  for (const requirement of security) {
    if (!isObject(requirement)) continue;
    const names = Object.keys(requirement);
    const missing = names.filter((name) => !known.has(name));
    if (missing.length > 0) dropped.push(...missing);
    else alternatives.push(names);
  }
  return { alternatives, dropped };
}
