/**
 * The n8n server's configuration: N8N_BASE_URL is the instance (the server adds /api/v1), and the built server
 * refuses to start without its two variables (exit 2, one line naming them). Needs `npm run build`.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { apiBaseUrl } from './customize.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

describe('N8N_BASE_URL', () => {
  it('is the instance: the public API path is added once', () => {
    expect(apiBaseUrl('https://n8n.example.com')).toBe('https://n8n.example.com/api/v1');
    expect(apiBaseUrl('https://n8n.example.com/')).toBe('https://n8n.example.com/api/v1');
    expect(apiBaseUrl('https://example.com/n8n/api/v1/')).toBe('https://example.com/n8n/api/v1');
    expect(apiBaseUrl('')).toBeUndefined();
    expect(apiBaseUrl(undefined)).toBeUndefined();
  });
});

describe('startup', () => {
  const start = (env: Record<string, string>) => {
    const clean = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('N8N_')));
    return spawnSync(process.execPath, ['dist/index.js'], {
      cwd: ROOT,
      env: { ...clean, ...env },
      input: '',
      encoding: 'utf8',
      timeout: 20_000,
    });
  };

  it('refuses to start without N8N_BASE_URL and N8N_API_KEY, naming both on one line (exit 2)', () => {
    const run = start({});
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/^missing environment variables: set N8N_API_KEY and N8N_BASE_URL /);
  });

  it('refuses an N8N_BASE_URL that is not an http(s) URL', () => {
    const run = start({ N8N_API_KEY: 'key', N8N_BASE_URL: 'n8n.example.com' });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/^N8N_BASE_URL must be the URL of your n8n instance/);
    expect(start({ N8N_API_KEY: 'key', N8N_BASE_URL: 'ftp://n8n.example.com' }).stderr).toMatch(
      /must be http or https/,
    );
  });
});
