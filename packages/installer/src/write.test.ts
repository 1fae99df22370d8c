/** Writes: atomic with a backup, new user files private, and nothing written when the file changed meanwhile. */
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cursor } from './clients/cursor.js';
import { planAdd } from './edit.js';
import type { ServerSpec } from './model.js';
import { writeEdit } from './write.js';

const SPEC: ServerSpec = { transport: 'stdio', command: 'w', args: [], env: {} };

describe('writeEdit', () => {
  it('creates a new user-scope file readable by its owner only, and a project file readable by all', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'installer-write-'));
    const user = join(dir, 'user', 'mcp.json');
    const written = await writeEdit(
      await planAdd({ client: cursor, scope: 'user', file: user }, 'w', SPEC, 'linux'),
    );
    expect(written).toEqual({ file: user });
    expect(statSync(user).mode & 0o777).toBe(0o600);
    const project = join(dir, 'project', 'mcp.json');
    await writeEdit(await planAdd({ client: cursor, scope: 'project', file: project }, 'w', SPEC, 'linux'));
    expect(statSync(project).mode & 0o777).toBe(0o644);
    expect(readdirSync(join(dir, 'user'))).toEqual(['mcp.json']);
  });

  it('writes nothing when the file changed after it was read', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'installer-write-'));
    const file = join(dir, 'mcp.json');
    writeFileSync(file, '{}\n');
    const plan = await planAdd({ client: cursor, scope: 'user', file }, 'w', SPEC, 'linux');
    writeFileSync(file, '{ "mcpServers": { "theirs": { "command": "t" } } }\n');
    await expect(writeEdit(plan)).rejects.toThrow('changed while it was being edited');
    expect(readFileSync(file, 'utf8')).toBe('{ "mcpServers": { "theirs": { "command": "t" } } }\n');
    expect(readdirSync(dir)).toEqual(['mcp.json']);
  });
});
