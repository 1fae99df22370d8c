/**
 * Engine-internal access to the server side, for the other folders of the engine (transports, auth).
 *
 * No entry point in package.json exports this module (a test pins the public surface): what is here can change
 * without notice. Cross-folder code reaches server internals through this module rather than deep imports, so
 * the list of what crosses the boundary is visible in one place.
 */
export { coreOf } from '../server/server.js';
export { abortRequest, finishRequest, isRequestAborted } from '../server/context.js';
export type { RequestEnv, ResponseOut, ServerCore, ServerCoreSettings } from '../server/core.js';
export type { LegacySession } from '../server/legacy-session.js';
export { principalOf } from '../server/principal.js';
export { closedSignal } from '../server/serving.js';
export { grantsScopes } from '../server/features/scopes.js';
