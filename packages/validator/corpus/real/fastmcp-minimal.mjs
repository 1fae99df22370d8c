// A minimal FastMCP server (`fastmcp`, a root devDependency), written from its README's quickstart: one tool,
// `add`, with a zod schema, here annotated read-only so that the validator calls it, started on stdio. Nothing
// here is broken on purpose: the validator's findings on it are the framework's (docs/validator/fastmcp-minimal.md).
import { FastMCP } from 'fastmcp';
import { z } from 'zod';

const server = new FastMCP({ name: 'fastmcp-minimal', version: '1.0.0' });

server.addTool({
  name: 'add',
  description: 'Add two numbers',
  parameters: z.object({ a: z.number(), b: z.number() }),
  annotations: { readOnlyHint: true },
  execute: async (args) => String(args.a + args.b),
});

server.start({ transportType: 'stdio' });
