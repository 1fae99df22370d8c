// A small, correct MCP server (legacy era, stdio) written with raw JSON-RPC, for the test runner's corpus of
// servers with tool bugs. Each corpus entry starts it with one hook that breaks one thing; with no hook it passes
// every mode of `mcpengine test` (declarative, mcp-jest, generated).
//
// Hooks: callTool(name, args, revision) -> a result object, or { error } for a JSON-RPC error, or undefined for
// the correct answer; readResource(uri) and getPrompt(name, args) likewise.
import { createInterface } from 'node:readline';

const REVISIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'];

export const TOOLS = [
  {
    name: 'add',
    description: 'Adds two numbers',
    inputSchema: {
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'number' } },
      required: ['a', 'b'],
      additionalProperties: false,
    },
    outputSchema: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'] },
  },
  {
    name: 'echo',
    description: 'Returns its text',
    inputSchema: {
      type: 'object',
      properties: { text: { type: 'string' } },
      required: ['text'],
      additionalProperties: false,
    },
  },
];

const RESOURCES = [{ uri: 'test://readme', name: 'readme', mimeType: 'text/plain' }];
const PROMPTS = [
  { name: 'greeting', description: 'Greets someone', arguments: [{ name: 'person', required: true }] },
];

/** Checks arguments against the two tools' schemas; returns what is wrong, or undefined. */
export function invalidArguments(name, args) {
  const tool = TOOLS.find((t) => t.name === name);
  for (const key of tool.inputSchema.required) if (!(key in args)) return `missing ${key}`;
  for (const [key, value] of Object.entries(args)) {
    const prop = tool.inputSchema.properties[key];
    if (prop === undefined) return `unknown argument ${key}`;
    if (typeof value !== prop.type) return `${key} must be a ${prop.type}`;
  }
  return undefined;
}

const text = (value) => ({ content: [{ type: 'text', text: value }] });

export function correctCall(name, args, revision) {
  const problem = invalidArguments(name, args);
  if (problem !== undefined) {
    // SEP-1303: from 2025-11-25 input validation errors are tool results; before, JSON-RPC -32602.
    if (revision >= '2025-11-25') return { ...text(`Invalid arguments: ${problem}`), isError: true };
    return { error: { code: -32602, message: `Invalid arguments: ${problem}` } };
  }
  if (name === 'add') {
    const sum = args.a + args.b;
    return revision >= '2025-06-18'
      ? { ...text(JSON.stringify({ sum })), structuredContent: { sum } }
      : text(JSON.stringify({ sum }));
  }
  return text(args.text);
}

export function main(hooks = {}) {
  let revision = '2025-11-25';
  const send = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);
  const answer = (id, outcome) =>
    outcome.error !== undefined
      ? send({ jsonrpc: '2.0', id, error: outcome.error })
      : send({ jsonrpc: '2.0', id, result: outcome });
  const lines = createInterface({ input: process.stdin });
  lines.on('line', (line) => {
    let message;
    try {
      message = JSON.parse(line);
    } catch {
      send({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
      return;
    }
    const { id, method, params = {} } = message;
    if (id === undefined || method === undefined) return;
    switch (method) {
      case 'initialize':
        revision = REVISIONS.includes(params.protocolVersion) ? params.protocolVersion : '2025-11-25';
        answer(id, {
          protocolVersion: revision,
          capabilities: { tools: {}, resources: {}, prompts: {} },
          serverInfo: { name: 'test-runner-corpus', version: '1.0.0' },
        });
        return;
      case 'ping':
        answer(id, {});
        return;
      case 'tools/list':
        answer(id, {
          tools: TOOLS.map((tool) =>
            revision >= '2025-06-18' ? tool : { ...tool, outputSchema: undefined },
          ).map((t) => JSON.parse(JSON.stringify(t))),
        });
        return;
      case 'tools/call': {
        const name = params.name;
        if (!TOOLS.some((t) => t.name === name)) {
          answer(id, { error: { code: -32602, message: `Unknown tool: ${name}` } });
          return;
        }
        const args = params.arguments ?? {};
        const outcome = hooks.callTool?.(name, args, revision);
        if (outcome === 'never') return;
        answer(id, outcome ?? correctCall(name, args, revision));
        return;
      }
      case 'resources/list':
        answer(id, { resources: RESOURCES });
        return;
      case 'resources/templates/list':
        answer(id, { resourceTemplates: [] });
        return;
      case 'resources/read': {
        const outcome = hooks.readResource?.(params.uri);
        if (outcome !== undefined) answer(id, outcome);
        else if (params.uri === 'test://readme')
          answer(id, { contents: [{ uri: params.uri, mimeType: 'text/plain', text: 'Read me.' }] });
        else
          answer(id, { error: { code: -32002, message: 'Resource not found', data: { uri: params.uri } } });
        return;
      }
      case 'prompts/list':
        answer(id, { prompts: PROMPTS });
        return;
      case 'prompts/get': {
        if (params.name !== 'greeting') {
          answer(id, { error: { code: -32602, message: `Unknown prompt: ${params.name}` } });
          return;
        }
        const outcome = hooks.getPrompt?.(params.name, params.arguments ?? {});
        answer(
          id,
          outcome ?? {
            messages: [
              { role: 'user', content: { type: 'text', text: `Hello, ${params.arguments?.person}!` } },
            ],
          },
        );
        return;
      }
      default:
        answer(id, { error: { code: -32601, message: `Method not found: ${method}` } });
    }
  });
  lines.on('close', () => (hooks.onEnd ?? (() => process.exit(0)))());
}
