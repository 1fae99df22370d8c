/**
 * Token counts with gpt-tokenizer's o200k_base encoding (the GPT-4o family's), loaded once on first use (the
 * encoding is a few MB).
 */
let counter: ((text: string) => number) | undefined;

export async function countTokens(text: string): Promise<number> {
  if (counter === undefined) counter = (await import('gpt-tokenizer/encoding/o200k_base')).countTokens;
  return counter(text);
}
