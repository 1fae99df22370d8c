/**
 * The runtime every OpenAPI-backed server runs on, `serve-openapi` and generated projects alike. It imports only
 * `mcpengine` and Node built-ins, so `generate` copies these files into the projects it writes.
 */
export type {
  ApiModel,
  AuthScheme,
  BodyBinding,
  FieldEncoding,
  BodyEncoding,
  HttpMethod,
  JsonSchemaObject,
  JsonValue,
  OperationTool,
  Pagination,
  ParamBinding,
  ToolAnnotationsModel,
} from './model.js';
export { ConfigurationError, resolveOptions, type ResolvedOptions, type RuntimeOptions } from './config.js';
export { Credentials, MissingCredentialsError, requiredVariables } from './auth.js';
export { OperationCaller, type CallProgress } from './call.js';
export { backoffMs, retryAfterMs, send, CallFailure, type ApiResponse } from './http.js';
export {
  buildRequest,
  formPairs,
  styledPairs,
  joinUrl,
  ArgumentError,
  type BuiltRequest,
} from './request.js';
export { mergePages, nextLink, nextStep } from './pagination.js';
export { TRUNCATED_KEY, shrinkToFit, truncateText } from './result.js';
export { Secrets } from './secrets.js';
export {
  CALL_TOOL,
  DEFAULT_THRESHOLD,
  DEFAULT_TOKEN_THRESHOLD,
  DEFAULT_TOKENS_PER_BYTE,
  estimateTokens,
  DISCOVER_TOOL,
  exposureFor,
  registerOperationTools,
  type Exposure,
  type RegisterOptions,
  type Registration,
} from './register.js';
export {
  applyCuration,
  shallowSchema,
  withoutArgs,
  CREATE,
  DELETE,
  READ,
  UPDATE,
  type Curation,
} from './curate.js';
