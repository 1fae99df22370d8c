/**
 * Tool and argument names: `operationId`, else an `x-…-operation-id` extension (n8n's `x-eov-operation-id`),
 * else method + path; sanitised to `^[A-Za-z0-9_.-]{1,64}$`; long names keep their head and gain a hash of the
 * whole; names that collide all gain a hash of their method and path, so a name never depends on the order of
 * operations in the description.
 */
import { createHash } from 'node:crypto';

export const MAX_NAME = 64;

function hash6(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 6);
}

export function sanitize(name: string): string {
  return name
    .replace(/[^A-Za-z0-9_.-]+/g, '_')
    .replace(/_+/g, '_')
    .replace(/^[_.-]+|[_.-]+$/g, '');
}

/** Fits a name into `max` characters: the head, `_`, and a hash of the whole name. */
export function fit(name: string, max = MAX_NAME): string {
  if (name.length <= max) return name;
  return `${name.slice(0, max - 7).replace(/[_.-]+$/, '')}_${hash6(name)}`;
}

export function methodPathName(method: string, path: string): string {
  const parts = path
    .split('/')
    .filter((segment) => segment !== '')
    .map((segment) => {
      const param = /^\{([^}]+)\}$/.exec(segment);
      return param ? `by_${param[1]}` : segment;
    });
  return sanitize(`${method}_${parts.join('_')}`) || method;
}

export function operationName(operation: Record<string, unknown>, method: string, path: string): string {
  const candidates: unknown[] = [operation['operationId']];
  for (const [key, value] of Object.entries(operation))
    if (/^x-.*operation-?id$/i.test(key)) candidates.push(value);
  for (const candidate of candidates) {
    if (typeof candidate === 'string') {
      const clean = sanitize(candidate);
      if (clean !== '') return fit(clean);
    }
  }
  return fit(methodPathName(method, path));
}

/** Makes every name unique: all members of a colliding set get a hash of their method and path. */
export function uniqueNames(entries: readonly { name: string; key: string }[]): string[] {
  const counts = new Map<string, number>();
  for (const entry of entries)
    counts.set(entry.name.toLowerCase(), (counts.get(entry.name.toLowerCase()) ?? 0) + 1);
  const out = entries.map((entry) =>
    (counts.get(entry.name.toLowerCase()) ?? 0) > 1
      ? fit(`${entry.name.slice(0, MAX_NAME - 7)}_${hash6(entry.key)}`)
      : entry.name,
  );
  // A renamed entry could meet a name that was already unique; settle with a counter (stable: input order is
  // the description's, and this only happens for adversarial names).
  const seen = new Set<string>();
  return out.map((name) => {
    let candidate = name;
    for (let i = 2; seen.has(candidate.toLowerCase()); i++) candidate = fit(`${name}_${i}`);
    seen.add(candidate.toLowerCase());
    return candidate;
  });
}

/** An environment-variable prefix from a name: `Stripe API` → `STRIPE_API`. */
export function envPrefix(name: string): string {
  const upper = name
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toUpperCase()
    .slice(0, 32)
    .replace(/_+$/, '');
  // "Stripe API" → STRIPE: the suffix says nothing in a variable name.
  const trimmed = upper.replace(/(_REST)?_API$/, '');
  const prefix = trimmed === '' ? 'API' : trimmed;
  return /^[0-9]/.test(prefix) ? `API_${prefix}` : prefix;
}

/** A package / file name from a title: `Stripe API` → `stripe-api`. */
export function kebab(name: string): string {
  const out = name
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .toLowerCase()
    .slice(0, 60)
    .replace(/-+$/, '');
  return out === '' ? 'api' : out;
}
