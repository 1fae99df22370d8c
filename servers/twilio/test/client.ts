/**
 * The engine's client in one place (generated): the smoke test uses only this helper, so a change of the
 * client API touches one file.
 */
import { Client } from 'mcpengine/client';
import type { CallToolResult } from 'mcpengine/protocol';
import { StdioClientTransport } from 'mcpengine/stdio';

export interface Connected {
  toolNames(): Promise<string[]>;
  call(name: string, args: Record<string, unknown>): Promise<CallToolResult>;
  close(): Promise<void>;
}

export async function connectClient(root: string, args: string[], env: Record<string, string>): Promise<Connected> {
  const session = await new Client({ name: 'smoke-test', version: '1.0.0' }).connect(
    new StdioClientTransport({ command: process.execPath, args: ['dist/index.js', ...args], env, cwd: root }),
  );
  return {
    async toolNames() {
      const names: string[] = [];
      for await (const tool of session.tools()) names.push(tool.name);
      return names;
    },
    call: (name, callArgs) => session.callTool({ name, arguments: callArgs }) as Promise<CallToolResult>,
    close: () => session.close(),
  };
}
