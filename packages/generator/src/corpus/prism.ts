/**
 * Prism (`@stoplight/prism-cli`), a real mock server that validates every request against the description it
 * serves. Prism answers an invalid request with an error status (which the runtime turns into `isError`) and
 * lists what it found in the `sl-violations` header; the request violations are recorded here. (Violations of
 * Prism's own generated responses are Prism's business, not the request's, and are left out.)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';

export interface PrismMock {
  readonly url: string;
  /** Violations Prism reported for requests (`sl-violations` headers), with the request that caused them. */
  readonly violations: string[];
  /** A fetch that records violations; give it to the runtime. */
  readonly fetch: typeof fetch;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address !== null
          ? resolve(address.port)
          : reject(new Error('no port')),
      );
    });
  });
}

/** JSON pointer (`#/a/b~1c`) → its segments. */
function pointer(ref: string): string[] {
  return ref
    .slice(2)
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function at(doc: unknown, parts: readonly string[]): unknown {
  let node = doc;
  for (const part of parts) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}

/** Every `$ref` string below a node. */
function refsIn(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) for (const item of node) refsIn(item, out);
  else if (typeof node === 'object' && node !== null)
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') out.push(value);
      else refsIn(value, out);
    }
  return out;
}

/**
 * The description cut down to the operations under test, losslessly for them: their path items, every
 * component they reach (transitively, whole entries: `#/components/<kind>/<name>`, Swagger's
 * `#/definitions/<name>`…) and the security schemes; everything else is left out. A request to a kept
 * operation is validated by Prism against exactly the schemas of the full description — only Prism's start-up
 * work shrinks (GitHub's 13 MB description takes Prism about a minute; a dozen of its operations, seconds).
 * Returns undefined when the description has references to other files (kept whole then).
 */
export function pruneToPaths(
  doc: Record<string, unknown>,
  paths: readonly string[],
): Record<string, unknown> | undefined {
  const allPaths = (doc['paths'] ?? {}) as Record<string, unknown>;
  const copy: Record<string, unknown> = {};
  const queue: unknown[] = [];
  // Webhooks are not requests Prism validates; every other top-level entry stays, with what it references.
  for (const [key, value] of Object.entries(doc))
    if (
      !['paths', 'components', 'definitions', 'parameters', 'responses', 'webhooks', 'x-webhooks'].includes(
        key,
      )
    ) {
      copy[key] = value;
      queue.push(value);
    }
  const keptPaths: Record<string, unknown> = {};
  copy['paths'] = keptPaths;
  const put = (parts: readonly string[], value: unknown) => {
    let node = copy;
    for (const part of parts.slice(0, -1)) {
      if (typeof node[part] !== 'object' || node[part] === null) node[part] = {};
      node = node[part] as Record<string, unknown>;
    }
    node[parts.at(-1)!] = value;
  };
  const seen = new Set<string>();
  for (const path of paths)
    if (path in allPaths) {
      keptPaths[path] = allPaths[path];
      queue.push(allPaths[path]);
    }
  const components = doc['components'] as Record<string, unknown> | undefined;
  if (components?.['securitySchemes'] !== undefined) {
    put(['components', 'securitySchemes'], components['securitySchemes']);
    queue.push(components['securitySchemes']);
  }
  while (queue.length > 0) {
    for (const ref of refsIn(queue.pop())) {
      if (!ref.startsWith('#/')) return undefined;
      const parts = pointer(ref);
      // The whole entry a reference points into: #/components/<kind>/<name>, #/<section>/<name>, #/paths/<path>.
      const entry = parts.slice(0, parts[0] === 'components' ? 3 : 2);
      const key = entry.join('/');
      if (seen.has(key)) continue;
      seen.add(key);
      const value = at(doc, entry);
      if (value === undefined) continue;
      put(entry, value);
      queue.push(value);
    }
  }
  return copy;
}

/**
 * The description Prism serves. With `paths`, only those operations, losslessly (`pruneToPaths`). Prism 5.14
 * also never finishes starting on descriptions whose schemas form a deep web of references (Stripe's: one
 * operation reaches 489 component schemas, many in cycles). With `refDepth`, every `$ref` of the kept
 * operations is inlined down to that many levels of references and replaced by `{}` (anything is valid) below
 * them: requests are still validated against everything above that depth, which for the tested operations is
 * their parameters and the top levels of their bodies.
 */
export function prismCopy(
  description: string,
  refDepth: number | undefined,
  paths: readonly string[] | undefined,
): string {
  if ((refDepth === undefined && paths === undefined) || !description.endsWith('.json')) return description;
  const doc = JSON.parse(readFileSync(description, 'utf8')) as Record<string, unknown>;
  let copy: Record<string, unknown>;
  if (refDepth === undefined) {
    const pruned = pruneToPaths(doc, paths!);
    if (pruned === undefined) return description;
    copy = pruned;
  } else {
    const inline = (node: unknown, depth: number): unknown => {
      if (Array.isArray(node)) return node.map((item) => inline(item, depth));
      if (typeof node !== 'object' || node === null) return node;
      const ref = (node as { $ref?: unknown }).$ref;
      if (typeof ref === 'string' && ref.startsWith('#/'))
        return depth >= refDepth ? {} : inline(at(doc, pointer(ref)), depth + 1);
      return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, inline(value, depth)]));
    };
    const all = doc['paths'] as Record<string, unknown>;
    const kept =
      paths === undefined ? all : Object.fromEntries(paths.filter((p) => p in all).map((p) => [p, all[p]]));
    copy = { ...doc, paths: inline(kept, 0) };
    delete copy['components'];
    const components = doc['components'] as Record<string, unknown> | undefined;
    if (components?.['securitySchemes'] !== undefined)
      copy['components'] = { securitySchemes: components['securitySchemes'] };
  }
  const dir = mkdtempSync(join(tmpdir(), 'prism-'));
  const path = join(dir, basename(description));
  writeFileSync(path, JSON.stringify(copy));
  return path;
}

type Violation = { location?: unknown[]; message?: string; severity?: string };

const TRUNCATED = 'Too many violations! ';

/**
 * The violations of an `sl-violations` header. Prism lists the request's first, then its own answer's, and cuts
 * a list longer than 8 KB mid-JSON behind "Too many violations! " (GitHub's code-security repositories: dozens
 * of required fields missing from Prism's generated answer); the entries still whole are read from the cut
 * text, which shows every request violation unless those alone fill 8 KB. Anything unreadable counts as a
 * request violation, to be looked at.
 */
export function parseViolations(header: string): Violation[] {
  try {
    return JSON.parse(header) as Violation[];
  } catch {
    if (!header.startsWith(TRUNCATED)) return [{ location: ['request'], message: header }];
  }
  const entries = [...header.matchAll(/\{"location":(\[[^\]]*\])[^{}]*?"message":("(?:[^"\\]|\\.)*")/g)].map(
    ([, location, message]) => ({
      location: JSON.parse(location!) as unknown[],
      message: JSON.parse(message!) as string,
    }),
  );
  const last = entries.at(-1);
  // Cut while still among the request's violations: the rest is unknown, so the cut list counts as one.
  if (entries.length === 0 || last!.location[0] === 'request')
    return [...entries, { location: ['request'], message: `${header.slice(0, 300)}… (cut by Prism)` }];
  return entries;
}

export async function startPrism(
  description: string,
  options: { refDepth?: number; paths?: readonly string[]; timeoutMs?: number } = {},
): Promise<PrismMock> {
  const timeoutMs = options.timeoutMs ?? 300_000;
  const bin = createRequire(import.meta.url).resolve('@stoplight/prism-cli/dist/index.js');
  const port = await freePort();
  const served = prismCopy(description, options.refDepth, options.paths);
  const child: ChildProcess = spawn(
    process.execPath,
    ['--max-old-space-size=4096', bin, 'mock', served, '--port', String(port), '--host', '127.0.0.1'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`Prism did not start within ${timeoutMs} ms:\n${output.slice(-2000)}`));
    }, timeoutMs);
    const watch = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Prism is listening')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', watch);
    child.stderr!.on('data', watch);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Prism exited (${code}):\n${output.slice(-2000)}`));
    });
  });
  // Keep draining Prism's log so that it never blocks on a full pipe.
  child.stdout!.resume();
  child.stderr!.resume();
  const violations: string[] = [];
  const recording: typeof fetch = async (input, init) => {
    // One connection per request: Prism closes a keep-alive connection after 5 s idle, and a request sent on
    // one just as it closes fails with "other side closed" (seen when several APIs are tested at once on a
    // loaded machine). A race of the test harness, not of the runtime, so no connection is ever reused.
    const headers = new Headers(init?.headers);
    headers.set('connection', 'close');
    const response = await fetch(input, { ...init, headers });
    const header = response.headers.get('sl-violations');
    if (header !== null && header !== '[]') {
      const found = parseViolations(header);
      const requestViolations = found.filter((v) => Array.isArray(v.location) && v.location[0] === 'request');
      if (requestViolations.length > 0)
        violations.push(
          `${init?.method ?? 'GET'} ${String(input)}: ${requestViolations.map((v) => `${(v.location ?? []).join('.')}: ${v.message}`).join('; ')}`,
        );
    }
    return response;
  };
  return {
    url: `http://127.0.0.1:${port}`,
    violations,
    fetch: recording,
    async stop() {
      if (served !== description) rmSync(dirname(served), { recursive: true, force: true });
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
