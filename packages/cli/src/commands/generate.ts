/**
 * `mcpengine generate`: write an editable TypeScript MCP server project from an OpenAPI description. The options
 * are checked here; `@mcpengine/generator` does the rest.
 */
import { UsageError, defineCommand } from '../command.js';

const options = {
  out: {
    type: 'string',
    value: '<dir>',
    description: 'the project directory (created, or regenerated in place)',
  },
  name: {
    type: 'string',
    value: '<name>',
    description: 'package and server name (default: from the description’s title)',
  },
  json: { type: 'boolean', description: 'print the outcome as JSON' },
} as const;

export const generate = defineCommand({
  name: 'generate',
  summary: 'write an editable TypeScript MCP server project from an OpenAPI description',
  synopsis: ['<spec> --out <dir> [--name <name>]'],
  description:
    'Writes a TypeScript project on the engine: one file of tools per tag, the runtime, a smoke test against a ' +
    'Prism mock, a README with mcpengine add lines, an MCP Registry server.json and a manifest with the ' +
    'description’s hash. Regenerating rewrites the generated files and keeps src/custom/ (and any generated file ' +
    'you edited, as <file>.edited).',
  options,
  positionals: { min: 1, max: 1 },
  exitCodes: [
    '0  the project was written',
    '2  usage error, or a description that cannot be served (one line says what and where)',
  ],
  examples: [
    'mcpengine generate stripe.json --out servers/stripe',
    'mcpengine generate https://example.com/openapi.yaml --out my-server --name my-api',
  ],
  async run({ positionals, values }, io) {
    if (values.out === undefined) throw new UsageError('--out <dir> is required');
    if (values.name !== undefined && !/^[a-z0-9][a-z0-9._-]{0,59}$/.test(values.name))
      throw new UsageError(
        `--name must be a lowercase package name (a-z 0-9 . _ -), got ${JSON.stringify(values.name)}`,
      );
    const spec = positionals[0]!;
    const { generateProject, DescriptionError } = await import('@mcpengine/generator');
    try {
      const result = await generateProject({
        spec,
        out: values.out,
        cwd: io.cwd,
        ...(values.name === undefined ? {} : { name: values.name }),
      });
      if (values.json) {
        io.stdout(
          `${JSON.stringify({ out: result.out, name: result.name, tools: result.api.tools.length, written: result.written, kept: result.kept, removed: result.removed, warnings: result.warnings }, null, 2)}\n`,
        );
        return 0;
      }
      io.stdout(
        `Generated ${result.name} in ${result.out}: ${result.api.tools.length} tools, ${result.written.length} files written.\n`,
      );
      for (const file of result.kept)
        io.stdout(`  kept your edited version as ${file}: move the change into src/custom/\n`);
      for (const file of result.removed) io.stdout(`  removed ${file} (no longer generated)\n`);
      if (result.warnings.length > 0) {
        io.stderr(`${result.warnings.length} warning${result.warnings.length === 1 ? '' : 's'}:\n`);
        for (const warning of result.warnings.slice(0, 10)) io.stderr(`  ${warning}\n`);
        if (result.warnings.length > 10) io.stderr(`  … and ${result.warnings.length - 10} more\n`);
      }
      io.stdout(`Next: cd ${values.out} && npm install && npm run build && npm test\n`);
      return 0;
    } catch (error) {
      if (error instanceof DescriptionError) {
        io.stderr(`mcpengine generate: ${error.line(spec)}\n`);
        return 2;
      }
      throw error;
    }
  },
});
