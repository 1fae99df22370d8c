/** A server with task-capable tools, for the engine's task tests. */
import { ProtocolError } from '../protocol/errors.js';
import type { ElicitationSchema, JsonObject } from '../protocol/types.js';
import { McpServer, TASKS_EXTENSION, type ServerOptions, type TasksExtension } from '../server/index.js';
import type { TaskEngine } from '../server/tasks/engine.js';

/** Lets a test decide when a `gate` task finishes. */
export class Gates {
  private readonly open = new Map<string, () => void>();
  private readonly waiting = new Map<string, Promise<void>>();

  wait(name: string): Promise<void> {
    let promise = this.waiting.get(name);
    if (!promise) {
      promise = new Promise<void>((resolve) => this.open.set(name, resolve));
      this.waiting.set(name, promise);
    }
    return promise;
  }

  release(name: string): void {
    void this.wait(name);
    this.open.get(name)!();
  }
}

const NAME_FORM: ElicitationSchema = {
  type: 'object',
  properties: { name: { type: 'string' } },
  required: ['name'],
};

export interface TaskServer {
  server: McpServer;
  gates: Gates;
  /** Names of tools whose handler saw its signal abort. */
  aborted: string[];
}

export function createTaskServer(options: Partial<ServerOptions> = {}): TaskServer {
  const gates = new Gates();
  const server = new McpServer({ name: 'task-server', version: '1.0.0', ...options });
  const aborted: string[] = [];

  server.addTool({
    name: 'plain',
    description: 'Never a task',
    handler: () => 'plain',
  });
  server.addTool<{ ms?: number }>({
    name: 'sleep',
    description: 'Sleeps, reporting progress; honours cancellation',
    inputSchema: { type: 'object', properties: { ms: { type: 'integer' } } },
    execution: { taskSupport: 'optional' },
    handler: ({ ms = 10 }, ctx) =>
      new Promise((resolve, reject) => {
        ctx.progress(1, 2, 'sleeping');
        const timer = setTimeout(() => resolve(`slept ${ms}`), ms);
        ctx.signal.addEventListener('abort', () => {
          clearTimeout(timer);
          aborted.push('sleep');
          reject(new Error('aborted'));
        });
      }),
  });
  server.addTool<{ name?: string }>({
    name: 'gate',
    description: 'Finishes when the test opens its gate',
    inputSchema: { type: 'object', properties: { name: { type: 'string' } } },
    execution: { taskSupport: 'optional' },
    handler: async ({ name = 'gate' }) => {
      await gates.wait(name);
      return `gate ${name} opened`;
    },
  });
  server.addTool({
    name: 'must',
    description: 'Only runs as a task',
    execution: { taskSupport: 'required' },
    handler: () => 'done',
  });
  server.addTool({
    name: 'boom',
    description: 'A tool error',
    execution: { taskSupport: 'required' },
    handler: () => {
      throw new Error('tool broke');
    },
  });
  server.addTool({
    name: 'protocol',
    description: 'A JSON-RPC error',
    execution: { taskSupport: 'required' },
    handler: () => {
      throw new ProtocolError(-32603, 'backend unavailable', { retry: true });
    },
  });
  server.addTool({
    name: 'ask',
    description: 'Asks for a name while running',
    execution: { taskSupport: 'optional' },
    handler: async (_args, ctx) => {
      const answer = await ctx.elicit({ message: 'Name?', requestedSchema: NAME_FORM }, { key: 'name' });
      return `Hello ${String(answer.content?.name ?? answer.action)}`;
    },
  });
  server.addTool({
    name: 'ask2',
    description: 'Asks two questions at once',
    execution: { taskSupport: 'optional' },
    handler: async (_args, ctx) => {
      const [a, b] = await Promise.all([
        ctx.elicit({ message: 'A?', requestedSchema: NAME_FORM }, { key: 'a' }),
        ctx.elicit({ message: 'B?', requestedSchema: NAME_FORM }, { key: 'b' }),
      ]);
      return `${String(a.content?.name)}+${String(b.content?.name)}`;
    },
  });
  server.addTool({
    name: 'reuse',
    description: 'Asks the same key twice (a handler bug the engine reports)',
    execution: { taskSupport: 'optional' },
    handler: async (_args, ctx) => {
      await ctx.elicit({ message: 'First?', requestedSchema: NAME_FORM }, { key: 'k' });
      await ctx.elicit({ message: 'Again?', requestedSchema: NAME_FORM }, { key: 'k' });
      return 'unreachable';
    },
  });
  server.addTool({
    name: 'sample',
    description: 'Samples while running',
    execution: { taskSupport: 'optional' },
    handler: async (_args, ctx) => {
      const result = await ctx.sample({
        messages: [{ role: 'user', content: { type: 'text', text: 'Hi' } }],
        maxTokens: 5,
      });
      const content = result.content as unknown as JsonObject;
      return `sampled ${String(content.text)}`;
    },
  });
  server.addTool<{ now?: boolean }>({
    name: 'prep',
    description: 'Asks in the request (prepare), then runs as a task',
    inputSchema: { type: 'object', properties: { now: { type: 'boolean' } } },
    execution: { taskSupport: 'required' },
    task: {
      prepare: async ({ now }, ctx) => {
        if (now) return 'answered at once';
        const answer = await ctx.elicit({ message: 'Who?', requestedSchema: NAME_FORM }, { key: 'who' });
        ctx.state.who = String(answer.content?.name);
        return undefined;
      },
      ttlMs: 120_000,
      pollIntervalMs: 50,
    },
    handler: (_args, ctx) => `Hi ${String(ctx.state.who)}`,
  });
  server.addTool<{ size: number }>({
    name: 'big',
    description: 'Returns a large result',
    inputSchema: { type: 'object', properties: { size: { type: 'integer' } }, required: ['size'] },
    execution: { taskSupport: 'optional' },
    handler: ({ size }) => 'x'.repeat(size),
  });
  return { server, gates, aborted };
}

/** The task engine a server runs (through its tasks extension). */
export function engineOf(server: McpServer): TaskEngine {
  return (server.extension(TASKS_EXTENSION) as TasksExtension).engine;
}
