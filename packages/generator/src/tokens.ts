/**
 * The estimated token cost of a `tools/list` result, counted with `gpt-tokenizer`'s o200k_base encoding (the
 * GPT-4o family's): the exact count for those models, and within a few percent of other current tokenizers on
 * JSON. Loaded only when asked for (the encoding is a few MB).
 */
import type { McpServer } from 'mcpengine/server';

export interface ListCost {
  readonly tools: number;
  readonly bytes: number;
  readonly tokens: number;
}

export async function countTokens(text: string): Promise<number> {
  const { countTokens: count } = await import('gpt-tokenizer/encoding/o200k_base');
  return count(text);
}

/** What a client receives for `tools/list` (every page), at the newest revision. */
export async function toolsListCost(server: McpServer): Promise<ListCost> {
  const tools = server.definition.tools
    .filter((tool) => tool.visible === undefined)
    .map((tool) => tool.descriptor);
  const text = JSON.stringify({ tools });
  return { tools: tools.length, bytes: Buffer.byteLength(text), tokens: await countTokens(text) };
}
