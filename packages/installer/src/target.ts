/** Which file a client keeps for a scope, on a platform, after its probes. */
import type { ClientDescriptor } from './clients/descriptor.js';
import { InstallerError, type Scope } from './model.js';
import type { PathContext } from './platform.js';

export interface Target {
  readonly client: ClientDescriptor;
  readonly scope: Scope;
  readonly file: string;
}

export function resolveTarget(client: ClientDescriptor, scope: Scope, ctx: PathContext): Target {
  const locate = client.scopes[scope];
  if (locate === undefined) {
    const scopes = Object.keys(client.scopes).join(' and ');
    throw new InstallerError(
      `${client.name} has no ${scope}-scope configuration file (it has ${scopes} scope only)`,
    );
  }
  return { client, scope, file: locate(ctx) };
}
