/**
 * A light JSON answer, for a request that came through an adapter (today `toNodeHandler`, which writes its text
 * straight to the socket), so the web `Response` (a body stream, a `Headers`, a body read back into bytes) is never built: that
 * machinery costs more than the MCP exchange it carries. It is still a `Response` to anyone who looks at it
 * (`instanceof` holds, every member works): anything but `status` builds the real one and delegates to it.
 */

import { delegateTo } from './server-request.js';

const JSON_REPLY = Symbol('mcpengine.jsonReply');

export interface JsonReply {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly json: string;
  /** The same bytes as `json` in pieces, the large one pre-encoded (a cached list page), when available. */
  readonly parts?: readonly (string | Uint8Array)[] | undefined;
}

export class LightJsonResponse {
  readonly status: number;
  readonly [JSON_REPLY]: JsonReply;
  #real: Response | undefined;

  constructor(
    json: string,
    status: number,
    headers: Readonly<Record<string, string>>,
    parts?: readonly (string | Uint8Array)[],
  ) {
    this.status = status;
    this[JSON_REPLY] = { status, headers, json, parts };
  }

  static real(response: LightJsonResponse): Response {
    const reply = response[JSON_REPLY];
    return (response.#real ??= new Response(reply.json, { status: reply.status, headers: reply.headers }));
  }
}

/** The JSON answer to write directly, when `response` is a light one. */
export function jsonReplyOf(response: Response): JsonReply | undefined {
  return response instanceof LightJsonResponse ? response[JSON_REPLY] : undefined;
}

/** A JSON `Response`: the light one for requests that came through an adapter (`light`), a real one otherwise. */
export function jsonAnswer(
  json: string,
  status: number,
  headers: Readonly<Record<string, string>>,
  light: boolean,
  parts?: readonly (string | Uint8Array)[],
): Response {
  return light
    ? (new LightJsonResponse(json, status, headers, parts) as unknown as Response)
    : new Response(json, { status, headers });
}

delegateTo(LightJsonResponse.prototype, Response.prototype, new Set(['status']), (self: LightJsonResponse) =>
  LightJsonResponse.real(self),
);
