import { describe, expect, it } from 'vitest';
import { countTokens } from './tokens.js';

describe('countTokens', () => {
  it('counts special-token text as plain text instead of throwing (OpenAI’s description quotes <|endoftext|>)', async () => {
    const plain = await countTokens('The prompt ends at the document separator.');
    const withSpecial = await countTokens('The prompt ends at <|endoftext|>, the document separator.');
    expect(plain).toBeGreaterThan(0);
    // As text, `<|endoftext|>` is several tokens, not the one special token.
    expect(withSpecial).toBeGreaterThan(plain + 1);
  });
});
