import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LoopbackRedirect } from './loopback.js';
import { FileAuthStore, MemoryAuthStore } from './store.js';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'mcpengine-auth-store-'));
  dirs.push(dir);
  return dir;
}

describe('FileAuthStore', () => {
  it('writes owner-only (0600 file, 0700 directory) through a rename, and reads back what it wrote', async () => {
    const dir = await tempDir();
    const path = join(dir, 'nested', 'auth.json');
    const store = new FileAuthStore(path);
    expect(await store.get('tokens x')).toBeUndefined();
    await store.set('tokens x', { access_token: 'secret-token', refresh_token: 'rt' });
    expect(((await stat(path)).mode & 0o777).toString(8)).toBe('600');
    expect(((await stat(join(dir, 'nested'))).mode & 0o777).toString(8)).toBe('700');
    expect(await readdir(join(dir, 'nested'))).toEqual(['auth.json']); // no temporary file left behind
    expect(await new FileAuthStore(path).get('tokens x')).toEqual({
      access_token: 'secret-token',
      refresh_token: 'rt',
    });
    await store.delete('tokens x');
    expect(await store.get('tokens x')).toBeUndefined();
  });

  it('keeps every concurrent write (no lost update) and tightens a file left readable by others', async () => {
    const dir = await tempDir();
    const path = join(dir, 'auth.json');
    await writeFile(path, JSON.stringify({ version: 1, entries: {} }), { mode: 0o644 });
    const store = new FileAuthStore(path);
    await Promise.all(Array.from({ length: 20 }, (_, i) => store.set(`k${i}`, { i })));
    const file = JSON.parse(await readFile(path, 'utf8')) as { entries: Record<string, unknown> };
    expect(Object.keys(file.entries)).toHaveLength(20);
    expect(((await stat(path)).mode & 0o777).toString(8)).toBe('600');
  });

  it('refuses to overwrite a file that is not a store', async () => {
    const dir = await tempDir();
    const path = join(dir, 'important.txt');
    await writeFile(path, 'my notes');
    const store = new FileAuthStore(path);
    await expect(store.set('k', { v: 1 })).rejects.toThrow(/not a store file/);
    expect(await readFile(path, 'utf8')).toBe('my notes');
  });
});

describe('MemoryAuthStore', () => {
  it('hands out copies', async () => {
    const store = new MemoryAuthStore();
    const value = { a: [1] };
    await store.set('k', value);
    value.a.push(2);
    const read = await store.get('k');
    expect(read).toEqual({ a: [1] });
    (read!.a as number[]).push(3);
    expect(await store.get('k')).toEqual({ a: [1] });
  });
});

describe('LoopbackRedirect', () => {
  it('receives the redirect on 127.0.0.1 and answers the browser', async () => {
    const opened: URL[] = [];
    const loopback = await LoopbackRedirect.start({ open: (url) => void opened.push(url) });
    try {
      expect(loopback.redirectUri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
      expect((await fetch(loopback.redirectUri)).status).toBe(400); // nothing in progress
      const pending = loopback.authorize(new URL('https://as.example/authorize?x=1'));
      await new Promise((r) => setTimeout(r, 10));
      expect(opened[0]?.href).toBe('https://as.example/authorize?x=1');
      expect((await fetch(`${loopback.redirectUri.replace('/callback', '/other')}?code=1`)).status).toBe(404);
      const page = await fetch(`${loopback.redirectUri}?code=abc&state=s`);
      expect(page.status).toBe(200);
      expect(page.headers.get('cache-control')).toBe('no-store');
      expect((await pending).searchParams.get('code')).toBe('abc');
    } finally {
      await loopback.close();
    }
  });

  it('resolves only on the redirect carrying the state of the authorization in progress', async () => {
    let opened!: () => void;
    const wasOpened = new Promise<void>((resolve) => (opened = resolve));
    const loopback = await LoopbackRedirect.start({ open: () => opened() });
    try {
      const pending = loopback.authorize(new URL('https://as.example/authorize?state=right-state'));
      await wasOpened;
      // A local attacker's callbacks: wrong state, no state, the state twice. Each is refused, none ends the login.
      expect((await fetch(`${loopback.redirectUri}?code=evil&state=wrong`)).status).toBe(400);
      expect((await fetch(`${loopback.redirectUri}?code=evil`)).status).toBe(400);
      expect(
        (await fetch(`${loopback.redirectUri}?code=evil&state=right-state&state=right-state`)).status,
      ).toBe(400);
      expect((await fetch(`${loopback.redirectUri}?code=good&state=right-state`)).status).toBe(200);
      expect((await pending).searchParams.get('code')).toBe('good');
    } finally {
      await loopback.close();
    }
  });

  it('times out', async () => {
    const loopback = await LoopbackRedirect.start({ timeoutMs: 30, open: () => {} });
    try {
      await expect(loopback.authorize(new URL('https://as.example/a'))).rejects.toThrow(
        /No authorization redirect/,
      );
    } finally {
      await loopback.close();
    }
  });
});
