/**
 * `OperationCaller`: calls one operation of the API for a tool call — credentials, request, retries, pages —
 * and turns the answer into a tool result. Every failure the caller can explain is a tool error (`isError`),
 * never an exception, and no text it returns contains a credential.
 */
import type { CallToolResult } from 'mcpengine/protocol';
import { compileSchema, type JsonSchema, type JsonSchemaValidator } from 'mcpengine/schema';
import { Credentials, MissingCredentialsError } from './auth.js';
import { ConfigurationError, resolveOptions, type ResolvedOptions, type RuntimeOptions } from './config.js';
import { CallFailure, fileLoader, send, type ApiResponse } from './http.js';
import type { ApiModel, OperationTool } from './model.js';
import { mergePages, nextStep } from './pagination.js';
import { ArgumentError, buildRequest, type BuiltRequest } from './request.js';
import { decodeBody, errorResult, httpErrorResult, successResult, type ResultContext } from './result.js';
import { Secrets } from './secrets.js';

export interface CallProgress {
  (done: number, total: number | undefined, message: string): void;
}

export class OperationCaller {
  readonly api: ApiModel;
  readonly options: ResolvedOptions;
  readonly secrets = new Secrets();
  readonly credentials: Credentials;
  readonly #outputs = new Map<string, JsonSchemaValidator>();

  constructor(api: ApiModel, options: RuntimeOptions = {}) {
    this.api = api;
    this.options = resolveOptions(options, api.envPrefix, api.baseUrl);
    for (const value of Object.values(this.options.headers)) this.secrets.add(value);
    this.credentials = new Credentials(api.schemes, this.options, this.secrets);
  }

  /**
   * Checks what serving needs before the server starts: a base URL, and credentials for every operation that
   * requires them (at least one configured scheme). Throws `ConfigurationError` naming what to set.
   */
  checkStartup(tools: readonly OperationTool[] = this.api.tools): void {
    if (this.options.baseUrl === undefined && tools.some((tool) => tool.server === undefined)) {
      throw new ConfigurationError(
        `the description has no absolute server URL: pass --base-url <url> or set ${this.api.envPrefix}_BASE_URL`,
      );
    }
    const needed = tools.filter(
      (tool) => tool.security.length > 0 && !tool.security.some((alt) => alt.length === 0),
    );
    if (needed.length === 0) return;
    if (needed.some((tool) => !(this.credentials.alternativeFor(tool) instanceof MissingCredentialsError)))
      return;
    const first = needed[0]!.security[0]!;
    throw new ConfigurationError(
      `missing environment variable${first.length > 1 || first.some((s) => this.credentials.describe(s).includes(' ')) ? 's' : ''}: set ${first
        .map((name) => this.credentials.describe(name))
        .join(' and ')} (security scheme ${first.join(' + ')} of the description)`,
    );
  }

  #checkOutput(tool: OperationTool): ((value: unknown) => string | undefined) | undefined {
    if (tool.outputSchema === undefined) return undefined;
    let validator = this.#outputs.get(tool.name);
    if (validator === undefined) {
      validator = compileSchema(tool.outputSchema as JsonSchema, { formats: 'annotate' });
      this.#outputs.set(tool.name, validator);
    }
    const compiled = validator;
    return (value) => {
      const outcome = compiled.validate(value);
      if (outcome.valid) return undefined;
      const issue = outcome.issues[0]!;
      return `${issue.instancePath === '' ? 'at the top' : `at ${issue.instancePath}`}: ${issue.message}`;
    };
  }

  async call(
    tool: OperationTool,
    args: Readonly<Record<string, unknown>>,
    signal: AbortSignal,
    progress?: CallProgress,
  ): Promise<CallToolResult> {
    const label = `${tool.method.toUpperCase()} ${tool.path}`;
    const ctx: ResultContext = {
      label,
      maxResponseBytes: this.options.maxResponseBytes,
      errorExcerptChars: this.options.errorExcerptChars,
      secrets: this.secrets,
      ...(tool.outputSchema === undefined ? {} : { checkOutput: this.#checkOutput(tool)! }),
    };
    const baseUrl = this.options.baseUrlOverride ?? tool.server ?? this.options.baseUrl;
    if (baseUrl === undefined)
      return errorResult(`${tool.name}: no base URL; set ${this.api.envPrefix}_BASE_URL`);
    const alternative = this.credentials.alternativeFor(tool);
    if (alternative instanceof MissingCredentialsError) return errorResult(alternative.message);
    const pagination = tool.pagination;
    const requested = pagination === undefined ? 1 : Number(args[pagination.arg] ?? 1);
    const maxPages = Math.max(
      1,
      Math.min(Number.isFinite(requested) ? Math.floor(requested) : 1, this.options.maxPages),
    );
    try {
      const auth = await this.credentials.apply(alternative, signal);
      const loadFile = fileLoader(this.options, signal);
      let request = await buildRequest(tool, args, baseUrl, auth, this.options.headers, loadFile);
      const pages: unknown[] = [];
      const notes: string[] = [];
      let pageArgs: Record<string, unknown> = { ...args };
      for (let page = 1; ; page++) {
        const response = await send(request, this.options, signal);
        if (response.status === 401) this.credentials.invalidate(alternative);
        if (response.status >= 400) {
          // A later page failing still reports what the API said; earlier pages are not passed off as complete.
          return httpErrorResult(response, { ...ctx, label: page > 1 ? `${label} (page ${page})` : label });
        }
        if (response.cut)
          notes.push(`[the answer was longer than ${this.options.maxDownloadBytes} bytes and was cut]`);
        const decoded = decodeBody(response);
        if (pagination === undefined || maxPages === 1 || !('json' in decoded)) {
          if (pages.length === 0)
            return successResult(decoded, ctx, notes.concat(moreNote(tool, decoded, pageArgs, response)));
          break;
        }
        pages.push(decoded.json);
        progress?.(page, maxPages, `page ${page} of at most ${maxPages}`);
        const next = nextStep(pagination, decoded.json, pageArgs, response.headers.get('link'));
        if (next === undefined) break;
        if (page >= maxPages) {
          notes.push(`[${page} pages fetched (the limit asked for); more pages follow]`);
          break;
        }
        if ('args' in next) {
          pageArgs = next.args;
          request = await buildRequest(tool, pageArgs, baseUrl, auth, this.options.headers, loadFile);
        } else {
          const url = new URL(next.url, request.url);
          if (url.origin !== request.url.origin) {
            notes.push(`[the next page is on another origin (${url.origin}); not followed]`);
            break;
          }
          for (const [key, value] of auth.query)
            if (!url.searchParams.has(key)) url.searchParams.append(key, value);
          request = { ...withoutBody(request), url };
        }
      }
      if (pages.length > 1) notes.push(`[${pages.length} pages merged]`);
      return successResult({ json: mergePages(pages, pagination!) }, ctx, notes);
    } catch (error) {
      if (
        error instanceof ArgumentError ||
        error instanceof CallFailure ||
        error instanceof MissingCredentialsError
      )
        return errorResult(this.secrets.redact(`${tool.name}: ${error.message}`));
      return errorResult(
        this.secrets.redact(`${tool.name}: ${label} failed: ${(error as Error).message ?? String(error)}`),
      );
    }
  }
}

function withoutBody(request: BuiltRequest): BuiltRequest {
  const { body: _body, ...rest } = request;
  return { ...rest, method: 'GET' };
}

/** Tells the model that a list has more pages when it asked for one page only. */
function moreNote(
  tool: OperationTool,
  decoded: ReturnType<typeof decodeBody>,
  args: Readonly<Record<string, unknown>>,
  response: ApiResponse,
): string[] {
  if (tool.pagination === undefined || !('json' in decoded)) return [];
  const next = nextStep(tool.pagination, decoded.json, args, response.headers.get('link'));
  if (next === undefined) return [];
  const how =
    'args' in next && 'param' in tool.pagination
      ? `${tool.pagination.param}=${JSON.stringify(next.args[tool.pagination.param])}`
      : undefined;
  return [
    `[more results: call again with ${tool.pagination.arg} > 1${how === undefined ? '' : ` or ${how}`}]`,
  ];
}
