import { describe, expect, it } from 'vitest';
import { describeLaunch } from './launch.js';

describe('describeLaunch', () => {
  it('shows a URL without query values or user info, and header names without values', () => {
    expect(
      describeLaunch({
        kind: 'http',
        url: 'https://user:pw@mcp.example.com/mcp?key=s3cret&region=eu',
        headers: { Authorization: 'Bearer t' },
        sseFallback: false,
      }),
    ).toBe('https://***@mcp.example.com/mcp?key=***&region=*** (headers: Authorization)');
    expect(
      describeLaunch({ kind: 'stdio', command: 'node', args: ['my server.js', "it's"], env: {}, cwd: '/' }),
    ).toBe(`node 'my server.js' 'it'\\''s'`);
  });
});
