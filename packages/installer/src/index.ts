/**
 * @mcpengine/installer: `mcpengine add`, `remove` and `list` as a library — client descriptors, format-preserving
 * edits of their configuration files, sources (command line, URL, registry server.json, fleet), verification.
 */
export {
  runAdd,
  describeVerified,
  INSTALLER_VERSION,
  type AddRequest,
  type AddSource,
  type InstallerIo,
} from './add.js';
export type { Handshake } from './verify/engine-client.js';
export { runRemove, type RemoveRequest } from './remove.js';
export { runList, listServers, type ListRequest, type ListedServer, type Listing } from './list.js';
export { CLIENTS, CLIENT_IDS, findClient, type ClientDescriptor } from './clients/index.js';
export { planAdd, planRemove, type EditPlan } from './edit.js';
export { writeEdit, BACKUP_SUFFIX } from './write.js';
export { resolveTarget, type Target } from './target.js';
export { pathContext, type PathContext } from './platform.js';
export { hostPlatform, parsePlatform, parseEnvPairs, parseHeaders, parseVarPairs } from './options.js';
export { openDocument } from './documents/open.js';
export type { ConfigFormat } from './documents/document.js';
export { FLEET_DIR_ENV } from './sources/fleet.js';
export type { Prompter, Question } from './sources/inputs.js';
export { InstallerError, PLATFORMS, SCOPES, type Platform, type Scope, type ServerSpec } from './model.js';
