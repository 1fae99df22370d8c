/**
 * Opens a configuration file's text in the editor for its format. Each editor (and its parser) is loaded on
 * first use, so a command pays only for the formats it touches.
 */
import type { ConfigDocument, ConfigFormat } from './document.js';

export async function openDocument(
  file: string,
  text: string,
  format: ConfigFormat,
): Promise<ConfigDocument> {
  // A byte-order mark is not part of the content; editors keep it, and so do we (see planEdit).
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  switch (format) {
    case 'json':
    case 'jsonc':
      return new (await import('./json.js')).JsonDocument(file, body, format);
    case 'toml':
      return new (await import('./toml.js')).TomlDocument(file, body);
    case 'yaml':
      return new (await import('./yaml.js')).YamlDocument(file, body);
  }
}
