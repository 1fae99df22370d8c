/**
 * Environment variables a spawned server inherits by default: enough to find executables, locate the home
 * and temp directories and pick a locale, but no secrets (tokens and keys in the client's environment stay
 * with the client unless passed explicitly).
 */
export const DEFAULT_INHERITED_ENV_VARS: readonly string[] =
  process.platform === 'win32'
    ? [
        'APPDATA',
        'ComSpec',
        'HOMEDRIVE',
        'HOMEPATH',
        'LOCALAPPDATA',
        'PATH',
        'PATHEXT',
        'PROCESSOR_ARCHITECTURE',
        'ProgramFiles',
        'SystemDrive',
        'SystemRoot',
        'TEMP',
        'TMP',
        'USERNAME',
        'USERPROFILE',
      ]
    : ['HOME', 'LANG', 'LC_ALL', 'LC_CTYPE', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'TMPDIR', 'TZ', 'USER'];

/**
 * The environment for a child process: the inherited variables (`true`: all of them; `false`: none; a list:
 * those names; default: DEFAULT_INHERITED_ENV_VARS), overridden by `env`.
 */
export function childEnvironment(
  inherit: boolean | readonly string[] | undefined,
  env: Readonly<Record<string, string>> | undefined,
  source: NodeJS.ProcessEnv = process.env,
): Record<string, string> {
  const result: Record<string, string> = {};
  if (inherit === true) {
    for (const [name, value] of Object.entries(source)) if (value !== undefined) result[name] = value;
  } else if (inherit !== false) {
    for (const name of inherit ?? DEFAULT_INHERITED_ENV_VARS) {
      const value = source[name];
      if (value !== undefined) result[name] = value;
    }
  }
  return env === undefined ? result : Object.assign(result, env);
}
