/**
 * Where configuration files live: resolved from the environment the way each client resolves it (HOME, and
 * USERPROFILE on win32, XDG_CONFIG_HOME, APPDATA, LOCALAPPDATA, CODEX_HOME...), for the platform asked for, which
 * need not be the one we run on (`--platform` prepares files for another machine).
 */
import { existsSync } from 'node:fs';
import { posix, win32 } from 'node:path';
import { InstallerError, type Platform } from './model.js';

export interface PathContext {
  readonly platform: Platform;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The project directory (project scope). */
  readonly cwd: string;
  /** Probes: whether a file or directory exists. */
  readonly exists: (path: string) => boolean;
}

export function pathContext(
  platform: Platform,
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
): PathContext {
  return { platform, env, cwd, exists: (path) => existsSync(path) };
}

const WINDOWS_ABSOLUTE = /^(?:[A-Za-z]:[\\/]|\\\\)/;

/**
 * Joins onto `base` with the separator `base` uses: a Windows path (C:\..., \\server) joins with "\", anything
 * else with "/", so a win32 layout prepared under a POSIX directory stays a usable POSIX path.
 */
export function joinPath(base: string, ...parts: string[]): string {
  return WINDOWS_ABSOLUTE.test(base) ? win32.join(base, ...parts) : posix.join(base, ...parts);
}

function variable(ctx: PathContext, name: string): string | undefined {
  const value = ctx.env[name];
  return value === undefined || value === '' ? undefined : value;
}

/** The home directory: USERPROFILE on win32 (then HOME), HOME elsewhere. */
export function homeDir(ctx: PathContext): string {
  const home =
    ctx.platform === 'win32'
      ? (variable(ctx, 'USERPROFILE') ?? variable(ctx, 'HOME'))
      : variable(ctx, 'HOME');
  if (home === undefined)
    throw new InstallerError(
      ctx.platform === 'win32'
        ? 'cannot find the home directory: set USERPROFILE (or HOME)'
        : 'cannot find the home directory: set HOME',
    );
  return home;
}

/** `$XDG_CONFIG_HOME`, else `~/.config`. */
export function xdgConfigHome(ctx: PathContext): string {
  return variable(ctx, 'XDG_CONFIG_HOME') ?? joinPath(homeDir(ctx), '.config');
}

/** `%APPDATA%`, else `~\AppData\Roaming`. */
export function appData(ctx: PathContext): string {
  return variable(ctx, 'APPDATA') ?? joinPath(homeDir(ctx), 'AppData', 'Roaming');
}

/** `%LOCALAPPDATA%`, else `~\AppData\Local`. */
export function localAppData(ctx: PathContext): string {
  return variable(ctx, 'LOCALAPPDATA') ?? joinPath(homeDir(ctx), 'AppData', 'Local');
}

/** `~/Library/Application Support` (macOS). */
export function macApplicationSupport(ctx: PathContext): string {
  return joinPath(homeDir(ctx), 'Library', 'Application Support');
}

/** Per-platform user settings directory of an Electron/VS Code-style app: `<base>/<app>`. */
export function appConfigDir(ctx: PathContext, app: string): string {
  switch (ctx.platform) {
    case 'darwin':
      return joinPath(macApplicationSupport(ctx), app);
    case 'win32':
      return joinPath(appData(ctx), app);
    case 'linux':
      return joinPath(xdgConfigHome(ctx), app);
  }
}

export function envVar(ctx: PathContext, name: string): string | undefined {
  return variable(ctx, name);
}
