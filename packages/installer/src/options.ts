/**
 * The command-line values common to add, remove and list, turned into the installer's types: `--env` and
 * `--header` values, where `${NAME}` refers to a variable and `--env NAME` alone forwards the variable NAME.
 */
import { InstallerError, PLATFORMS, type Platform } from './model.js';
import { looksSecret, parseTemplate, type Template } from './template.js';

export function hostPlatform(): Platform {
  const platform = process.platform;
  return platform === 'darwin' || platform === 'win32' ? platform : 'linux';
}

export function parsePlatform(value: string | undefined): Platform {
  if (value === undefined) return hostPlatform();
  if (!(PLATFORMS as readonly string[]).includes(value))
    throw new InstallerError(
      `--platform must be one of ${PLATFORMS.join(', ')}, got ${JSON.stringify(value)}`,
    );
  return value as Platform;
}

/** `KEY=VALUE` pairs as given (values unparsed); `KEY` alone is `KEY=${KEY}`. */
export function parseEnvPairs(pairs: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    const key = eq === -1 ? pair : pair.slice(0, eq);
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(key))
      throw new InstallerError(
        `--env needs KEY=VALUE (or KEY to forward the variable), got ${JSON.stringify(pair)}`,
      );
    out[key] = eq === -1 ? `\${${key}}` : pair.slice(eq + 1);
  }
  return out;
}

export function parseVarPairs(pairs: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new InstallerError(`--var needs NAME=VALUE, got ${JSON.stringify(pair)}`);
    out[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return out;
}

export function parseHeaders(lines: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    const name = colon <= 0 ? '' : line.slice(0, colon).trim();
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name))
      throw new InstallerError(`--header needs "Name: value", got ${JSON.stringify(line)}`);
    out[name] = line.slice(colon + 1).trim();
  }
  return out;
}

export function templateOf(key: string, text: string, what: string): Template {
  try {
    return parseTemplate(text, looksSecret(key));
  } catch (error) {
    throw new InstallerError(`${what} ${key}: ${(error as Error).message}`);
  }
}

export function templates(values: Readonly<Record<string, string>>, what: string): Record<string, Template> {
  return Object.fromEntries(Object.entries(values).map(([key, text]) => [key, templateOf(key, text, what)]));
}
