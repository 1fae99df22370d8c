/**
 * The weather example server tested with the test runner's Vitest API (shown in docs/test-runner.md).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useMcpServer } from '@mcpengine/test-runner/vitest';

const server = join(import.meta.dirname, '..', 'dist', 'weather-server.js');

describe('weather server', () => {
  const mcp = useMcpServer(
    { command: process.execPath, args: [server] },
    { client: { elicitation: [{ action: 'accept', content: { city: 'Oslo' } }] } },
  );

  it('reports the weather', async () => {
    expect(await mcp.callTool('get_weather', { city: 'Oslo' })).toHaveTextContent('Sunny in Oslo');
  });

  it('refuses a call without a city', async () => {
    expect(await mcp.callTool('get_weather', {})).toRejectInput();
  });

  it('asks the user which city', async () => {
    const result = await mcp.callTool('choose_city');
    expect(result).not.toBeToolError();
    expect(result).toHaveTextContent('You chose Oslo');
  });

  it('does not know other tools', async () => {
    await expect(mcp.callTool('get_forecast')).rejects.toBeProtocolError(-32602);
  });
});
