/**
 * The estimated token cost of a `tools/list` result, counted with `gpt-tokenizer`'s o200k_base encoding (the
 * GPT-4o family's): the exact count for those models, and within a few percent of other current tokenizers on
 * JSON. Loaded only when asked for (the encoding is a few MB).
 */
import type { McpServer } from 'mcpengine/server';
import type { OperationTool } from './runtime/model.js';

export interface ListCost {
  readonly tools: number;
  readonly bytes: number;
  readonly tokens: number;
}

/**
 * Special-token text (`<|endoftext|>`, which OpenAI's own description quotes) is counted as the plain text a model
 * receives; gpt-tokenizer's default throws on it.
 */
export async function countTokens(text: string): Promise<number> {
  const { countTokens: count } = await import('gpt-tokenizer/encoding/o200k_base');
  return count(text, { disallowedSpecial: new Set() });
}

/** What a client receives for `tools/list` (every page), at the newest revision. */
export async function toolsListCost(server: McpServer): Promise<ListCost> {
  const tools = server.definition.tools
    .filter((tool) => tool.visible === undefined)
    .map((tool) => tool.descriptor);
  const text = JSON.stringify({ tools });
  return { tools: tools.length, bytes: Buffer.byteLength(text), tokens: await countTokens(text) };
}

/** The text of an operation as `tools/list` shows it (the fields the runtime registers). */
function listedText(tool: OperationTool): string {
  return JSON.stringify({
    name: tool.name,
    ...(tool.title === undefined ? {} : { title: tool.title }),
    description: tool.description,
    inputSchema: tool.inputSchema,
    ...(tool.outputSchema === undefined ? {} : { outputSchema: tool.outputSchema }),
    annotations: tool.annotations,
    execution: { taskSupport: 'optional' },
  });
}

/**
 * Tokens per byte of this API's tool list (o200k_base), for the runtime's disclosure decision
 * (`ApiModel.tokensPerByte`): exact for lists up to `sampleBytes`, else measured on operations spread evenly
 * across the description until that many bytes.
 */
export async function measureTokensPerByte(
  tools: readonly OperationTool[],
  sampleBytes = 256 * 1024,
): Promise<number | undefined> {
  if (tools.length === 0) return undefined;
  const texts = tools.map(listedText);
  const total = texts.reduce((sum, text) => sum + Buffer.byteLength(text), 0);
  let sample = texts;
  if (total > sampleBytes) {
    const step = total / sampleBytes;
    sample = [];
    let bytes = 0;
    for (let i = 0; i < texts.length && bytes < sampleBytes; i += step) {
      const text = texts[Math.floor(i)]!;
      sample.push(text);
      bytes += Buffer.byteLength(text);
    }
  }
  const joined = `{"tools":[${sample.join(',')}]}`;
  const tokens = await countTokens(joined);
  return Math.round((tokens / Buffer.byteLength(joined)) * 10_000) / 10_000;
}
