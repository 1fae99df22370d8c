/**
 * RFC 3986 reference resolution (§5.2). We avoid WHATWG `URL` because it refuses to resolve against
 * non-hierarchical bases such as `urn:` and `tag:` identifiers, which JSON Schema `$id`s commonly use.
 */

interface UriParts {
  scheme: string | undefined;
  authority: string | undefined;
  path: string;
  query: string | undefined;
  fragment: string | undefined;
}

const URI_PATTERN = /^(?:([^:/?#]+):)?(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/s;

function parse(uri: string): UriParts {
  const m = URI_PATTERN.exec(uri);
  // The pattern matches every string; the fallback only satisfies the type checker.
  if (m === null)
    return { scheme: undefined, authority: undefined, path: uri, query: undefined, fragment: undefined };
  return {
    scheme: m[1]?.toLowerCase(),
    authority: m[2],
    path: m[3] ?? '',
    query: m[4],
    fragment: m[5],
  };
}

function format(p: UriParts): string {
  let out = '';
  if (p.scheme !== undefined) out += p.scheme + ':';
  if (p.authority !== undefined) out += '//' + p.authority;
  out += p.path;
  if (p.query !== undefined) out += '?' + p.query;
  if (p.fragment !== undefined) out += '#' + p.fragment;
  return out;
}

function removeDotSegments(path: string): string {
  const input = path.split('/');
  const output: string[] = [];
  for (let i = 0; i < input.length; i++) {
    const seg = input[i] as string;
    const last = i === input.length - 1;
    if (seg === '.') {
      if (last) output.push('');
    } else if (seg === '..') {
      if (output.length > 1 || (output.length === 1 && output[0] !== '')) output.pop();
      if (last) output.push('');
    } else {
      output.push(seg);
    }
  }
  return output.join('/');
}

function merge(base: UriParts, refPath: string): string {
  if (base.authority !== undefined && base.path === '') return '/' + refPath;
  const slash = base.path.lastIndexOf('/');
  return slash === -1 ? refPath : base.path.slice(0, slash + 1) + refPath;
}

/** Resolves `ref` against the absolute URI `base`. */
export function resolveUri(base: string, ref: string): string {
  const r = parse(ref);
  const b = parse(base);
  const t: UriParts = {
    scheme: undefined,
    authority: undefined,
    path: '',
    query: undefined,
    fragment: r.fragment,
  };
  if (r.scheme !== undefined) {
    t.scheme = r.scheme;
    t.authority = r.authority;
    t.path = removeDotSegments(r.path);
    t.query = r.query;
  } else {
    t.scheme = b.scheme;
    if (r.authority !== undefined) {
      t.authority = r.authority;
      t.path = removeDotSegments(r.path);
      t.query = r.query;
    } else {
      t.authority = b.authority;
      if (r.path === '') {
        t.path = b.path;
        t.query = r.query ?? b.query;
      } else {
        t.path = removeDotSegments(r.path.startsWith('/') ? r.path : merge(b, r.path));
        t.query = r.query;
      }
    }
  }
  return format(t);
}

/** Splits `uri` into the part before `#` and the (still percent-encoded) fragment, `''` when absent. */
export function splitFragment(uri: string): [string, string] {
  const hash = uri.indexOf('#');
  return hash === -1 ? [uri, ''] : [uri.slice(0, hash), uri.slice(hash + 1)];
}
