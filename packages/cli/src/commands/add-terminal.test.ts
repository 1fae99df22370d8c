/**
 * On a real terminal (a pty from util-linux `script`), `mcpengine add --from server.json` asks for the values it
 * needs, shows defaults, and writes the answers. Uses the built CLI (`npm run build` first).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const CLI = resolve(dirname(fileURLToPath(import.meta.url)), '../../bin/mcpengine.js');

it('asks for required values on a terminal and writes the answers', async () => {
  const home = mkdtempSync(join(tmpdir(), 'mcpengine-tty-'));
  const serverJson = join(home, 'server.json');
  writeFileSync(
    serverJson,
    JSON.stringify({
      name: 'io.example/weather',
      description: 'Weather',
      version: '1.2.0',
      packages: [
        {
          registryType: 'npm',
          identifier: '@example/weather-mcp',
          version: '1.2.0',
          transport: { type: 'stdio' },
          environmentVariables: [
            { name: 'WEATHER_REGION', isRequired: true, description: 'Region', choices: ['eu', 'us'] },
            { name: 'WEATHER_UNITS', isRequired: true, default: 'metric' },
            { name: 'WEATHER_KEY', isRequired: true, isSecret: true },
          ],
        },
      ],
    }),
  );
  const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} add weather --client cursor --from ${JSON.stringify(serverJson)}`;
  const child = spawn('script', ['-qec', command, '/dev/null'], {
    env: { PATH: process.env['PATH'], HOME: home, TERM: 'dumb' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let screen = '';
  const answers: [string, string][] = [
    ['WEATHER_REGION (Region; eu|us): ', 'eu\n'],
    ['WEATHER_UNITS [metric]: ', '\n'],
  ];
  child.stdout.on('data', (chunk: Buffer) => {
    screen += chunk.toString();
    const next = answers[0];
    if (next !== undefined && screen.includes(next[0])) {
      answers.shift();
      child.stdin.write(next[1]);
    }
  });
  const code = await new Promise<number | null>((done) => child.on('close', done));
  expect(screen).not.toContain('WEATHER_KEY (');
  expect(screen).toContain('Added "weather" in Cursor (user scope)');
  expect(code).toBe(0);
  expect(JSON.parse(readFileSync(join(home, '.cursor', 'mcp.json'), 'utf8'))).toEqual({
    mcpServers: {
      weather: {
        command: 'npx',
        args: ['-y', '@example/weather-mcp@1.2.0'],
        env: { WEATHER_REGION: 'eu', WEATHER_UNITS: 'metric', WEATHER_KEY: '${env:WEATHER_KEY}' },
      },
    },
  });
});
