/**
 * @mcpengine/generator: from an OpenAPI description to an MCP server. One mapping core (`buildApiModel`) and two
 * modes: `serveOpenApi` (serve the description directly) and `generateProject` (write an editable TypeScript
 * project on the engine). The runtime both use is `@mcpengine/generator/runtime`.
 */
export { DescriptionError } from './errors.js';
export { loadDescription, type LoadedDescription, type LoadOptions } from './load/load.js';
export {
  buildApiModel,
  selectTools,
  serverUrlOf,
  type BuildOptions,
  type BuildResult,
  type Selection,
} from './map/build.js';
export { DEFAULT_SETTINGS, type MapSettings } from './map/operation.js';
export { envPrefix, kebab } from './map/names.js';
export { createOpenApiServer, type CreateServerOptions, type OpenApiServer } from './serve/server.js';
export { serveOpenApi, type ServeIo, type ServeOpenApiOptions } from './serve/serve-openapi.js';
export { countTokens, measureTokensPerByte, toolsListCost, type ListCost } from './tokens.js';
export * from './runtime/index.js';
export { sampleArguments, sampleValue } from './sample.js';
export {
  generateProject,
  GENERATOR_VERSION,
  MANIFEST,
  type GenerateOptions,
  type GenerateResult,
} from './emit/project.js';
export {
  mcpengineTestEmitter,
  vitestSmokeEmitter,
  type TestEmitter,
  type TestEmitInput,
  type EmittedFile,
} from './emit/tests.js';
