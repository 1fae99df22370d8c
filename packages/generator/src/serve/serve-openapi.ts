/**
 * `mcpengine serve-openapi`: load a description, map it, and serve it on stdio (stdout carries protocol
 * messages only; everything else goes to stderr) or on Streamable HTTP (both eras, HTTP+SSE too).
 */
import { serveHttp } from 'mcpengine/http';
import { serveStdio } from 'mcpengine/stdio';
import { DescriptionError } from '../errors.js';
import { loadDescription } from '../load/load.js';
import { buildApiModel, selectTools, type Selection } from '../map/build.js';
import { ConfigurationError } from '../runtime/config.js';
import { DEFAULT_THRESHOLD, type Exposure } from '../runtime/register.js';
import { measureTokensPerByte } from '../tokens.js';
import { createOpenApiServer } from './server.js';

export interface ServeOpenApiOptions {
  readonly spec: string;
  readonly cwd: string;
  readonly baseUrl?: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly expose?: Exposure;
  readonly select?: Selection;
  readonly http?: { readonly port: number; readonly host?: string };
  readonly name?: string;
}

export interface ServeIo {
  readonly stderr: (text: string) => void;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly signal: AbortSignal;
}

/** Serves until the client goes (stdio) or the process is interrupted (HTTP); returns the exit code. */
export async function serveOpenApi(options: ServeOpenApiOptions, io: ServeIo): Promise<number> {
  let served;
  try {
    const loaded = await loadDescription(options.spec, { cwd: options.cwd });
    const { api, warnings } = buildApiModel(loaded, options.name === undefined ? {} : { name: options.name });
    const tools = options.select === undefined ? api.tools : selectTools(api.tools, options.select);
    if (tools.length === 0) throw new DescriptionError('the selection leaves no operation to serve');
    // Disclosure is chosen by the list's token cost: the ratio is measured only when it can matter.
    const tokensPerByte =
      options.expose === undefined && tools.length <= DEFAULT_THRESHOLD
        ? await measureTokensPerByte(tools)
        : undefined;
    served = createOpenApiServer(
      { ...api, tools, ...(tokensPerByte === undefined ? {} : { tokensPerByte }) },
      {
        ...(options.baseUrl === undefined ? {} : { baseUrl: options.baseUrl }),
        headers: options.headers,
        env: io.env,
        ...(options.expose === undefined ? {} : { expose: options.expose }),
        log: (line) => io.stderr(`${line}\n`),
      },
    );
    const all = [...warnings, ...served.warnings];
    if (all.length > 0) {
      io.stderr(`serve-openapi: ${all.length} warning${all.length === 1 ? '' : 's'}:\n`);
      for (const warning of all.slice(0, 10)) io.stderr(`  ${warning}\n`);
      if (all.length > 10) io.stderr(`  … and ${all.length - 10} more\n`);
    }
    if (served.tools.length === 0)
      throw new DescriptionError('no operation of the description could be served', '/paths');
    io.stderr(
      `serve-openapi: ${api.title} ${api.version}: ${served.tools.length} operations (${served.registration.exposure === 'groups' ? `progressive disclosure: ${served.registration.exposure}` : 'all listed'}${served.registration.estimatedTokens === undefined ? '' : `, about ${served.registration.estimatedTokens} tokens to list them all`})\n`,
    );
  } catch (error) {
    if (error instanceof DescriptionError) {
      io.stderr(`mcpengine serve-openapi: ${error.line(options.spec)}\n`);
      return 2;
    }
    if (error instanceof ConfigurationError) {
      io.stderr(`mcpengine serve-openapi: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
  if (options.http === undefined) {
    const serving = await serveStdio(served.server);
    // Serving ends when the client closes stdin, or when the command is interrupted.
    io.signal.addEventListener('abort', () => void serving.close(), { once: true });
    if (io.signal.aborted) void serving.close();
    await serving.closed;
    return 0;
  }
  const serving = await serveHttp(served.server, {
    port: options.http.port,
    ...(options.http.host === undefined ? {} : { host: options.http.host }),
    legacySse: true,
  });
  io.stderr(`serve-openapi: Streamable HTTP: ${serving.url}\nserve-openapi: HTTP+SSE: ${serving.sseUrl}\n`);
  await new Promise<void>((resolve) => {
    if (io.signal.aborted) resolve();
    io.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await serving.close();
  return 0;
}
