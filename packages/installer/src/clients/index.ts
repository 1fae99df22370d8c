/** Every client the installer knows, in the order `mcpengine list` and the docs show them. */
import { claudeCode } from './claude-code.js';
import { claudeDesktop } from './claude-desktop.js';
import { cline } from './cline.js';
import { codex } from './codex.js';
import { copilotCli } from './copilot-cli.js';
import { cursor } from './cursor.js';
import type { ClientDescriptor } from './descriptor.js';
import { gemini } from './gemini.js';
import { goose } from './goose.js';
import { kiro } from './kiro.js';
import { opencode } from './opencode.js';
import { vscode } from './vscode.js';
import { windsurf } from './windsurf.js';
import { zed } from './zed.js';

export const CLIENTS: readonly ClientDescriptor[] = [
  claudeDesktop,
  claudeCode,
  cursor,
  vscode,
  windsurf,
  cline,
  codex,
  gemini,
  zed,
  goose,
  opencode,
  copilotCli,
  kiro,
];

export const CLIENT_IDS: readonly string[] = CLIENTS.map((client) => client.id);

export function findClient(id: string): ClientDescriptor | undefined {
  return CLIENTS.find((client) => client.id === id);
}

export type { ClientDescriptor } from './descriptor.js';
