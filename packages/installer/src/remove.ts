/** `mcpengine remove`: deletes one server from a client's file (the scope where it is, unless --scope says). */
import { clientOrThrow, type InstallerIo } from './add.js';
import { planRemove, type EditPlan } from './edit.js';
import { checkServerName, InstallerError, SCOPES, type Platform, type Scope } from './model.js';
import { pathContext } from './platform.js';
import { resolveTarget } from './target.js';
import { writeEdit } from './write.js';

export interface RemoveRequest {
  readonly name: string;
  readonly client: string;
  /** Absent: every scope the client has, and the server must be in exactly one. */
  readonly scope?: Scope;
  readonly platform: Platform;
  readonly dryRun: boolean;
}

export async function runRemove(request: RemoveRequest, io: InstallerIo): Promise<number> {
  try {
    return await remove(request, io);
  } catch (error) {
    if (!(error instanceof InstallerError)) throw error;
    io.stderr(`mcpengine remove: ${error.message}\n`);
    return error.exitCode;
  }
}

async function remove(request: RemoveRequest, io: InstallerIo): Promise<number> {
  const client = clientOrThrow(request.client);
  checkServerName(request.name);
  const ctx = pathContext(request.platform, io.env, io.cwd);
  const scopes =
    request.scope === undefined
      ? SCOPES.filter((scope) => client.scopes[scope] !== undefined)
      : [request.scope];
  const plans: EditPlan[] = [];
  const looked: string[] = [];
  for (const scope of scopes) {
    const target = resolveTarget(client, scope, ctx);
    looked.push(target.file);
    const plan = await planRemove(target, request.name);
    if (plan.entry !== undefined) plans.push(plan);
  }
  const [plan, second] = plans;
  if (plan === undefined)
    throw new InstallerError(`no server named "${request.name}" in ${client.name}'s ${looked.join(' or ')}`);
  if (second !== undefined)
    throw new InstallerError(
      `"${request.name}" is in both ${plans.map((p) => `${p.target.scope} scope (${p.target.file})`).join(' and ')}; say which with --scope`,
    );
  const where = `${client.name} (${plan.target.scope} scope): ${plan.target.file}`;
  if (request.dryRun) {
    io.stdout(plan.diff);
    io.stdout(`(dry run: nothing written to ${plan.target.file})\n`);
    return 0;
  }
  const written = await writeEdit(plan);
  io.stdout(`Removed "${request.name}" from ${where}\n`);
  if (written.backup !== undefined) io.stdout(`  backup of the previous file: ${written.backup}\n`);
  return 0;
}
