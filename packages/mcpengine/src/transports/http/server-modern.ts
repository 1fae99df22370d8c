/**
 * The modern era (2026-07-28) on Streamable HTTP: every POST is one self-describing request, served statelessly.
 *
 * Checks run in the order the conformance reference uses, so that each problem gets its own code: a missing
 * `MCP-Protocol-Version` header (-32020), missing required `_meta` fields (-32602), header and `_meta` versions
 * that differ (-32020), an unsupported version (-32022), then the `Mcp-Method`/`Mcp-Name`/`Mcp-Param-*` headers
 * (-32020). Errors always echo the request id. Closing the response stream cancels the request.
 */
import { ErrorCode, ProtocolError, RequestAbortedError } from '../../protocol/errors.js';
import type { JsonRpcRequest } from '../../protocol/jsonrpc.js';
import { readModernMeta, unsupportedVersionError } from '../../protocol/meta.js';
import { isRevision } from '../../protocol/revisions.js';
import type { AuthInfo, RequestContext } from '../../server/context.js';
import { abortRequest } from '../../internal/server.js';
import type { ResponseOut } from '../../server/core.js';
import type { HttpContext } from './server-context.js';
import { cameThroughAdapter } from './server-request.js';
import { Exchange } from './server-exchange.js';
import { checkRequestHeaders } from './server-headers.js';
import { errorResponse, modernStatus, TRANSPORT_ERROR } from './server-responses.js';
import { ResponseStream } from './session-stream.js';

export class ModernEndpoint {
  /** Requests being processed (open subscriptions included). */
  inflight = 0;
  private readonly active = new Set<RequestContext>();

  constructor(private readonly http: HttpContext) {}

  async request(request: Request, message: JsonRpcRequest, auth: AuthInfo | undefined): Promise<Response> {
    const { core, options } = this.http;
    const reject = (error: ProtocolError) => {
      const out = core.errorResponse(message.id, error, undefined, message.method);
      return new Response(out.json, {
        status: modernStatus(out.errorCode),
        headers: { 'content-type': 'application/json' },
      });
    };

    const versionHeader = request.headers.get('mcp-protocol-version')?.trim();
    if (versionHeader === undefined) {
      return reject(
        new ProtocolError(
          ErrorCode.HeaderMismatch,
          'Header mismatch: the MCP-Protocol-Version header is required',
        ),
      );
    }
    let requested: string;
    try {
      requested = readModernMeta(message.params).protocolVersion;
    } catch (error) {
      return reject(error as ProtocolError);
    }
    if (versionHeader !== requested) {
      return reject(
        new ProtocolError(
          ErrorCode.HeaderMismatch,
          `Header mismatch: MCP-Protocol-Version header ${JSON.stringify(versionHeader)} does not match _meta protocolVersion ${JSON.stringify(requested)}`,
        ),
      );
    }
    if (!isRevision(requested) || !core.modernRevisions.includes(requested)) {
      return reject(unsupportedVersionError(requested, core.modernRevisions));
    }
    try {
      checkRequestHeaders(request.headers, message, core.definition);
    } catch (error) {
      return reject(error as ProtocolError);
    }
    if (this.inflight >= options.maxModernInflight) {
      return errorResponse(
        503,
        message.id,
        { code: TRANSPORT_ERROR, message: 'Server busy: too many requests in flight' },
        { 'retry-after': '1' },
      );
    }

    const contexts = new Set<RequestContext>();
    let gone = false;
    const cancel = (ctx: RequestContext) =>
      abortRequest(ctx, new RequestAbortedError('cancelled', 'the client closed the response stream'));
    const exchange = new Exchange(
      {
        expected: 1,
        batch: false,
        openStream: () => new ResponseStream('m', { report: this.http.report }),
        connect: () => this.http.connection(),
        retryMs: options.retryMs,
        streamAfterMs: options.streamAfterMs,
        lightReply: cameThroughAdapter(request),
        statusOf: modernStatus,
        // Closing the response stream is the cancellation signal of this revision.
        onGone: () => {
          gone = true;
          for (const ctx of contexts) cancel(ctx);
        },
        onClosed: () => {},
      },
      request,
    );
    this.inflight++;
    const answer = (out: ResponseOut | null): void => {
      this.inflight--;
      exchange.respond(out);
    };
    const out = core.handleModern(message, {
      outbox: exchange.outbox,
      auth,
      track: (_id, ctx) => {
        contexts.add(ctx);
        this.active.add(ctx);
        if (gone) cancel(ctx);
        return () => {
          contexts.delete(ctx);
          this.active.delete(ctx);
        };
      },
    });
    if (out instanceof Promise) {
      out.then(answer, (error: unknown) =>
        answer(core.errorResponse(message.id, error, undefined, message.method)),
      );
    } else {
      answer(out);
    }
    exchange.startClock();
    return exchange.answer;
  }

  /** Shutdown: cancels what is still running. */
  abortAll(reason: string): void {
    for (const ctx of [...this.active]) abortRequest(ctx, new RequestAbortedError('closed', reason));
  }
}
