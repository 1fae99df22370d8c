/** The variable syntaxes clients use, each with the reader that turns it back into references. */
import { referenceSyntax, type ReferenceSyntax } from '../template.js';

/** `${NAME}`, `${NAME:-default}` (Claude Code, Kiro, Copilot CLI). */
export const DOLLAR_BRACE: ReferenceSyntax = referenceSyntax(
  '${NAME}',
  (reference) => `\${${reference.env}}`,
  /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/,
);

/** `${env:NAME}` (Cursor, Windsurf, VS Code). */
export const ENV_COLON: ReferenceSyntax = referenceSyntax(
  '${env:NAME}',
  (reference) => `\${env:${reference.env}}`,
  /\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}/,
);

/** `$NAME` or `${NAME}` (Gemini CLI). */
export const SHELL_STYLE: ReferenceSyntax = referenceSyntax(
  '${NAME} or $NAME',
  (reference) => `\${${reference.env}}`,
  /\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/,
  (match) => ({ env: (match[1] ?? match[2])! }),
);

/** `{env:NAME}` (OpenCode). */
export const BRACE_ENV: ReferenceSyntax = referenceSyntax(
  '{env:NAME}',
  (reference) => `{env:${reference.env}}`,
  /\{env:([A-Za-z_][A-Za-z0-9_]*)\}/,
);
