export { LineDecoder, DEFAULT_MAX_MESSAGE_BYTES } from './line-decoder.js';
export type { LineDecoderOptions, LineDecoderSink } from './line-decoder.js';
export { StdioServerTransport } from './server-transport.js';
export type { StdioServerTransportOptions } from './server-transport.js';
export { StdioClientTransport, StdioProcessExitError } from './client-transport.js';
export type { ProcessExitStatus, StdioClientTransportOptions } from './client-transport.js';
export { DEFAULT_INHERITED_ENV_VARS } from './environment.js';
export { serveStdio, type ServeStdioOptions, type StdioServing } from './serve.js';
