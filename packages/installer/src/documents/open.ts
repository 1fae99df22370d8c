/** Opens a configuration file's text in the editor for its format. */
import type { ConfigDocument, ConfigFormat } from './document.js';
import { JsonDocument } from './json.js';
import { TomlDocument } from './toml.js';
import { YamlDocument } from './yaml.js';

export function openDocument(file: string, text: string, format: ConfigFormat): ConfigDocument {
  // A byte-order mark is not part of the content; editors keep it, and so do we (see planEdit).
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  switch (format) {
    case 'json':
    case 'jsonc':
      return new JsonDocument(file, body, format);
    case 'toml':
      return new TomlDocument(file, body);
    case 'yaml':
      return new YamlDocument(file, body);
  }
}
