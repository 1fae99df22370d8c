/**
 * The implementations compared side by side, and where their server programs are.
 */
import { fileURLToPath } from 'node:url';

export type ImplId = 'mcpengine' | 'sdk1' | 'sdk2' | 'raw';

export const IMPLEMENTATIONS: Readonly<Record<ImplId, { label: string; description: string }>> = {
  mcpengine: { label: 'MCPEngine', description: 'this repository (packages/mcpengine)' },
  sdk1: { label: 'SDK 1.x', description: '@modelcontextprotocol/sdk' },
  sdk2: { label: 'SDK 2.x', description: '@modelcontextprotocol/server' },
  raw: { label: 'raw ceiling', description: 'hand-written server without validation' },
};

const script = (name: string) => fileURLToPath(new URL(`./servers/${name}.js`, import.meta.url));

/** The program serving `impl` on `transport`. */
export function serverProgram(impl: ImplId, transport: 'stdio' | 'http', catalog = false): string[] {
  const extra = catalog ? ['--catalog'] : [];
  switch (impl) {
    case 'mcpengine':
      return [script('engine'), transport, ...extra];
    case 'sdk1':
      return [script('sdk1'), transport, ...extra];
    case 'sdk2':
      return [script('sdk2'), transport, ...extra];
    case 'raw':
      return transport === 'stdio' ? [script('raw-stdio')] : [script('raw-http'), ...extra];
  }
}

export const WORKER = fileURLToPath(new URL('./driver/worker.js', import.meta.url));
