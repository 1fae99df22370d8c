/**
 * `WWW-Authenticate` challenges (RFC 9110 §11.6.1): parsing every challenge of a header, and building the
 * Bearer challenges a resource server sends (RFC 6750 §3, RFC 9728 §5.1).
 */

export interface Challenge {
  /** The auth scheme, lower case (`bearer`, `dpop`...). */
  readonly scheme: string;
  /** Parameters by lower-case name; the first occurrence wins. */
  readonly params: ReadonlyMap<string, string>;
  readonly token68?: string;
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+/;
const TOKEN68 = /^[A-Za-z0-9\-._~+/]+=*/;

/** Parses a `WWW-Authenticate` value into its challenges; malformed parts end the parse, never throw. */
export function parseWwwAuthenticate(header: string | null | undefined): Challenge[] {
  const challenges: Challenge[] = [];
  if (!header || header.length > 8192) return challenges;
  let rest = header;
  const skipSpace = () => {
    rest = rest.replace(/^[ \t]+/, '');
  };
  const skipCommas = () => {
    rest = rest.replace(/^[ \t,]+/, '');
  };
  skipCommas();
  while (rest.length > 0) {
    const scheme = TOKEN.exec(rest)?.[0];
    if (!scheme) break;
    rest = rest.slice(scheme.length);
    const params = new Map<string, string>();
    let token68: string | undefined;
    skipSpace();
    // auth-params start with `name =` (one "="); anything else token68-shaped is a token68.
    const isParams = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+[ \t]*=(?!=)[ \t]*[^ \t,]/.test(rest);
    const t68 = isParams ? undefined : TOKEN68.exec(rest)?.[0];
    if (t68 !== undefined && /^[ \t]*(,|$)/.test(rest.slice(t68.length))) {
      token68 = t68;
      rest = rest.slice(t68.length);
      skipSpace();
    } else {
      for (;;) {
        skipSpace();
        const name = TOKEN.exec(rest)?.[0];
        if (!name) break;
        const after = rest.slice(name.length).replace(/^[ \t]*/, '');
        if (!after.startsWith('=')) break; // the next challenge's scheme
        rest = after.slice(1).replace(/^[ \t]*/, '');
        let value: string;
        if (rest.startsWith('"')) {
          let i = 1;
          value = '';
          for (; i < rest.length; i++) {
            const c = rest[i]!;
            if (c === '\\' && i + 1 < rest.length) value += rest[++i]!;
            else if (c === '"') break;
            else value += c;
          }
          if (i >= rest.length) return [...challenges, { scheme: scheme.toLowerCase(), params, token68 }];
          rest = rest.slice(i + 1);
        } else {
          value = TOKEN.exec(rest)?.[0] ?? '';
          rest = rest.slice(value.length);
        }
        const key = name.toLowerCase();
        if (!params.has(key)) params.set(key, value);
        skipSpace();
        if (!rest.startsWith(',')) break;
        rest = rest.slice(1);
        // A comma may separate two params or two challenges: look ahead for "name =".
        const next = rest.replace(/^[ \t,]*/, '');
        if (!/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+[ \t]*=/.test(next)) {
          rest = next;
          break;
        }
        rest = next;
      }
    }
    challenges.push(
      token68 === undefined
        ? { scheme: scheme.toLowerCase(), params }
        : { scheme: scheme.toLowerCase(), params, token68 },
    );
    skipCommas();
  }
  return challenges;
}

/** What a Bearer challenge tells a client. */
export interface BearerChallenge {
  readonly error?: string;
  readonly errorDescription?: string;
  /** Space-separated scopes, split. */
  readonly scopes?: readonly string[];
  readonly resourceMetadata?: string;
}

/** What a Bearer (or DPoP) challenge's parameters say. */
function challengeParams(challenge: Challenge): BearerChallenge {
  const scope = challenge.params.get('scope');
  const out: { -readonly [K in keyof BearerChallenge]: BearerChallenge[K] } = {};
  const error = challenge.params.get('error');
  if (error) out.error = error;
  const description = challenge.params.get('error_description');
  if (description) out.errorDescription = description;
  if (scope !== undefined) out.scopes = scope.split(' ').filter((s) => s.length > 0);
  const metadata = challenge.params.get('resource_metadata');
  if (metadata) out.resourceMetadata = metadata;
  return out;
}

/** The Bearer challenge of a response, if any (the first one). */
export function bearerChallengeOf(header: string | null | undefined): BearerChallenge | undefined {
  const challenge = parseWwwAuthenticate(header).find((c) => c.scheme === 'bearer');
  return challenge ? challengeParams(challenge) : undefined;
}

/** The first Bearer, else DPoP, challenge of a response (RFC 9449 §7.1 uses the same parameters). */
export function authChallengeOf(
  header: string | null | undefined,
): (BearerChallenge & { readonly scheme: 'bearer' | 'dpop' }) | undefined {
  const challenges = parseWwwAuthenticate(header);
  const challenge =
    challenges.find((c) => c.scheme === 'bearer') ?? challenges.find((c) => c.scheme === 'dpop');
  if (!challenge) return undefined;
  return { ...challengeParams(challenge), scheme: challenge.scheme as 'bearer' | 'dpop' };
}

function quote(value: string): string {
  // Control characters never belong in a header, nor non-ASCII; quotes and backslashes are escaped.
  let out = '"';
  for (const char of value) {
    const code = char.charCodeAt(0);
    if (code < 0x20 || code === 0x7f) out += ' ';
    else if (code > 0x7e)
      out += '?'; // header values are ASCII here
    else if (char === '"' || char === '\\') out += `\\${char}`;
    else out += char;
  }
  return `${out}"`;
}

/** Builds a Bearer challenge; parameters that are undefined are left out. */
export function buildBearerChallenge(challenge: {
  error?: string;
  errorDescription?: string;
  scope?: readonly string[];
  resourceMetadata?: string;
  realm?: string;
}): string {
  const params: string[] = [];
  if (challenge.realm !== undefined) params.push(`realm=${quote(challenge.realm)}`);
  if (challenge.resourceMetadata !== undefined)
    params.push(`resource_metadata=${quote(challenge.resourceMetadata)}`);
  if (challenge.scope !== undefined && challenge.scope.length > 0)
    params.push(`scope=${quote(challenge.scope.join(' '))}`);
  if (challenge.error !== undefined) params.push(`error=${quote(challenge.error)}`);
  if (challenge.errorDescription !== undefined)
    params.push(`error_description=${quote(challenge.errorDescription)}`);
  return params.length === 0 ? 'Bearer' : `Bearer ${params.join(', ')}`;
}
