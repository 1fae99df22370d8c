/**
 * The installer's vocabulary: one canonical description of a server (`ServerSpec`) that every client descriptor
 * renders into its own file format, and the errors that decide the exit code.
 */
import type { Template } from './template.js';

export type Platform = 'darwin' | 'win32' | 'linux';
export const PLATFORMS: readonly Platform[] = ['darwin', 'win32', 'linux'];

export type Scope = 'user' | 'project';
export const SCOPES: readonly Scope[] = ['user', 'project'];

/** How the client reaches the server: it starts a process (stdio) or connects to a URL. */
export type TransportKind = 'stdio' | 'http' | 'sse';

/** A server as the user asked for it, before any client's spelling. */
export type ServerSpec = StdioServerSpec | RemoteServerSpec;

export interface StdioServerSpec {
  readonly transport: 'stdio';
  readonly command: string;
  readonly args: readonly Template[];
  /** Variables for the server process, over those it inherits from the client. */
  readonly env: Readonly<Record<string, Template>>;
  /** Working directory (only clients that have the field keep it). */
  readonly cwd?: string;
}

export interface RemoteServerSpec {
  readonly transport: 'http' | 'sse';
  readonly url: Template;
  readonly headers: Readonly<Record<string, Template>>;
}

/** Something the installer declines to do, with the reason and, where there is one, what to do instead. */
export class InstallerError extends Error {
  override readonly name: string = 'InstallerError';
  /** 1: a verification failed; 2: usage, an unparseable file, a refusal or an I/O failure. */
  readonly exitCode: 1 | 2;

  constructor(message: string, exitCode: 1 | 2 = 2, options?: ErrorOptions) {
    super(message, options);
    this.exitCode = exitCode;
  }
}

/** The client's file cannot express what was asked (a remote server in Claude Desktop, SSE in Codex...). */
export class RefusalError extends InstallerError {
  override readonly name = 'RefusalError';
}

/** A configuration file that does not parse: it is never overwritten. */
export class ConfigParseError extends InstallerError {
  override readonly name = 'ConfigParseError';
  readonly file: string;
  readonly line: number;
  readonly column: number;

  constructor(file: string, line: number, column: number, reason: string) {
    super(
      `${file}:${line}:${column}: ${reason}. The file was not changed; fix it (or move it away) and run again.`,
    );
    this.file = file;
    this.line = line;
    this.column = column;
  }
}

/** Server names every client accepts as a key (Codex and VS Code are the strictest). */
export const SERVER_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

export function checkServerName(name: string): void {
  if (!SERVER_NAME.test(name))
    throw new InstallerError(
      `invalid server name ${JSON.stringify(name)}: use letters, digits, "-" and "_" (at most 64, starting with a letter or digit), which every client accepts as a key`,
    );
}
