/**
 * Token counts with gpt-tokenizer's o200k_base encoding (the GPT-4o family's), loaded once on first use (the
 * encoding is a few MB).
 */
import type { countTokens as CountTokens } from 'gpt-tokenizer/encoding/o200k_base';

let counter: typeof CountTokens | undefined;

export async function countTokens(text: string): Promise<number> {
  if (counter === undefined) counter = (await import('gpt-tokenizer/encoding/o200k_base')).countTokens;
  // Special-token text (`<|endoftext|>`) counts as the plain text a model receives; the default throws on it.
  return counter(text, { disallowedSpecial: new Set() });
}
