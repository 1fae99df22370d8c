// A minimal FastMCP server (`fastmcp`, a root devDependency), written from its README's quickstart: one tool,
// `add`, with a zod schema, here annotated read-only so that the validator calls it, started on stdio — or, with
// `--http-port N`, with the README's "HTTP Streaming" (Streamable HTTP on /mcp, and HTTP+SSE on /sse). Nothing
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

const port = process.argv.indexOf('--http-port');
if (port === -1) server.start({ transportType: 'stdio' });
else server.start({ transportType: 'httpStream', httpStream: { port: Number(process.argv[port + 1]) } });
