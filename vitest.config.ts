import { defaultClientConditions, defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

// Tests run against TypeScript sources (the "@mcpengine/source" export condition); spawned processes use the
// built dist.
const SOURCE = '@mcpengine/source';

export default defineConfig({
  resolve: { conditions: [SOURCE, ...defaultClientConditions] },
  ssr: { resolve: { conditions: [SOURCE, ...defaultServerConditions], externalConditions: [SOURCE] } },
  test: {
    include: [
      'packages/*/src/**/*.test.ts',
      'servers/*/src/**/*.test.ts',
      'clients/*/src/**/*.test.ts',
      'examples/src/**/*.test.ts',
      'test/**/*.test.ts',
    ],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
