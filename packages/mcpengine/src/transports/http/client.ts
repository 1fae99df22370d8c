/**
 * The client side of MCP over HTTP: Streamable HTTP (both eras), the deprecated HTTP+SSE transport, and the
 * automatic choice between them.
 */
export {
  connectHttp,
  createHttpTransport,
  HttpClientTransport,
  type HttpClientTransportOptions,
  type HttpConnectable,
} from './client-auto.js';
export {
  HttpError,
  HttpTransportError,
  SessionExpiredError,
  type HttpTransportFailure,
} from './client-errors.js';
export type {
  ExtraHeaders,
  FetchLike,
  HttpClientAuth,
  HttpClientLogger,
  HttpClientOptions,
} from './client-fetch.js';
export { checkToolHeaders, type ToolHeaderCheck } from './client-headers.js';
export { SseClientTransport, type SseClientTransportOptions } from './client-sse.js';
export {
  StreamableHttpClientTransport,
  type ReconnectOptions,
  type StreamableHttpClientTransportOptions,
} from './client-streamable.js';
