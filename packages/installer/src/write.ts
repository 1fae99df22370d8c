/**
 * Writes a planned edit safely: into the real file behind a symlink, through a temporary file in the same
 * directory and a rename (readers see the old file or the new one, never half of either), after copying the old
 * content to `<file>.mcpengine.bak`. If the file changed since it was read (a running client rewrote it), nothing
 * is written. New files get mode 0600 in the user's directories (they may hold credentials), 0644 in a project.
 */
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, open, readFile, realpath, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { EditPlan } from './edit.js';
import { InstallerError } from './model.js';

export interface WriteResult {
  readonly file: string;
  /** Where the previous content was copied, when there was a previous file. */
  readonly backup?: string;
}

export const BACKUP_SUFFIX = '.mcpengine.bak';

async function realTarget(file: string): Promise<string> {
  try {
    return await realpath(file);
  } catch {
    return file;
  }
}

export async function writeEdit(plan: EditPlan): Promise<WriteResult> {
  const file = await realTarget(plan.target.file);
  let current: string | undefined;
  try {
    current = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
      throw new InstallerError(`cannot read ${file}: ${(error as Error).message}`);
  }
  if (current !== plan.before)
    throw new InstallerError(
      `${plan.target.file} changed while it was being edited (is ${plan.target.client.name} running and rewriting it?); nothing was written. Run the command again.`,
    );
  try {
    await mkdir(dirname(file), { recursive: true });
    let mode = plan.target.scope === 'user' ? 0o600 : 0o644;
    let backup: string | undefined;
    if (current !== undefined) {
      mode = (await stat(file)).mode & 0o777;
      backup = `${file}${BACKUP_SUFFIX}`;
      await writeFile(backup, current, { mode });
      await chmod(backup, mode);
    }
    const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    const handle = await open(temporary, 'wx', mode);
    try {
      await handle.writeFile(plan.after, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    try {
      await rename(temporary, file);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
    return backup === undefined ? { file } : { file, backup };
  } catch (error) {
    if (error instanceof InstallerError) throw error;
    throw new InstallerError(`cannot write ${file}: ${(error as Error).message}`, 2, { cause: error });
  }
}
