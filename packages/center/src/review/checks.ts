/**
 * The review: checks over what the other stages measured and over the server's own tool list. Each check has a
 * fixed number of points, earns a share of them from counts it shows as evidence, and says how it counted; the
 * score is earned / possible over the checks that apply. A check that cannot apply (no Apps) is worth 0 points.
 */
import type { JsonObject } from '../inspect.js';

export interface ReviewCheck {
  readonly id: string;
  readonly title: string;
  /** How the points are earned, in one sentence. */
  readonly rule: string;
  readonly possible: number;
  readonly earned: number;
  /** What the check found, one line per item, for people. */
  readonly evidence: readonly string[];
}

export interface ToolCost {
  readonly name: string;
  readonly tokens: number;
}

export interface ReviewInput {
  readonly tools: readonly JsonObject[];
  readonly resources: readonly JsonObject[];
  readonly apps: boolean;
  /**
   * Tools and resources as a host that advertises MCP Apps (`io.modelcontextprotocol/ui`) is shown them: servers
   * add UI metadata, and list app-only tools, only for such clients. The Apps check reads these when given.
   */
  readonly appsSeen?: { readonly tools: readonly JsonObject[]; readonly resources: readonly JsonObject[] };
  /** The validator's MCP Apps rules (`validate --apps`), when they ran: each rule's verdict and first finding. */
  readonly appsRules?: readonly {
    readonly id: string;
    readonly level: string;
    readonly verdict: 'pass' | 'fail' | 'warn' | 'not-applicable';
    readonly detail: string;
  }[];
  /** Share of MUST requirements passed per revision and transport (validates stage), if it ran. */
  readonly validation?: { readonly mustShare: number; readonly failures: readonly string[] };
  /** Security lint warnings from the validator's advisory checks. */
  readonly securityWarnings?: readonly string[];
  readonly tests?: { readonly passed: number; readonly failed: number; readonly failures: readonly string[] };
  /** Tools of the other servers of the fleet (latest known), for shadowing. */
  readonly otherTools: readonly {
    readonly server: string;
    readonly name: string;
    readonly description: string;
  }[];
  readonly listTokens: number;
  readonly toolTokens: readonly ToolCost[];
}

const round = (value: number): number => Math.round(value * 100) / 100;

function share(part: number, whole: number): number {
  return whole === 0 ? 1 : part / whole;
}

const descriptionOf = (tool: JsonObject): string =>
  typeof tool['description'] === 'string' ? tool['description'] : '';

/** Phrases that tell a model when to pick the tool (or when not to). */
const WHEN_TO_USE =
  /\b(use (this|it)?\s*(when|to|for|if)|when (you|the user)|call this|useful (for|when)|do not use|only when)\b/i;

/** Word sets for near-duplicate detection (names split on case and separators). */
function words(text: string): Set<string> {
  return new Set(
    text
      .replace(/([a-z])([A-Z])/g, '$1 $2')
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter((word) => word.length > 2),
  );
}

function jaccard(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let common = 0;
  for (const word of a) if (b.has(word)) common++;
  return common / (a.size + b.size - common);
}

function normalizedName(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** JSON Schema features that some clients' tool-calling (OpenAI strict mode, Gemini) reject or ignore. */
function portabilityProblems(schema: unknown, path = '$'): string[] {
  if (typeof schema !== 'object' || schema === null) return [];
  const node = schema as JsonObject;
  const problems: string[] = [];
  if (path === '$' && node['type'] !== 'object') problems.push(`${path}: the root is not "type": "object"`);
  for (const key of ['$ref', 'patternProperties', 'if', 'not', 'dependentSchemas', '$dynamicRef'])
    if (key in node) problems.push(`${path}: uses ${key}`);
  if (path === '$' && ['oneOf', 'anyOf', 'allOf'].some((key) => key in node))
    problems.push(`${path}: a combinator at the root`);
  const properties = node['properties'];
  if (typeof properties === 'object' && properties !== null)
    for (const [name, child] of Object.entries(properties))
      problems.push(...portabilityProblems(child, `${path}.${name}`));
  if (node['items'] !== undefined) problems.push(...portabilityProblems(node['items'], `${path}[]`));
  return problems;
}

export function reviewChecks(input: ReviewInput): ReviewCheck[] {
  const tools = input.tools;
  const checks: ReviewCheck[] = [];

  if (input.validation !== undefined)
    checks.push({
      id: 'validator-must',
      title: 'Validator: MUST requirements',
      rule: '20 points × the share of MUST requirements passed (every revision and transport validated)',
      possible: 20,
      earned: round(20 * input.validation.mustShare),
      evidence: [
        `${Math.round(input.validation.mustShare * 1000) / 10}% of MUST requirements passed`,
        ...input.validation.failures.slice(0, 20),
      ],
    });

  if (input.securityWarnings !== undefined)
    checks.push({
      id: 'security-lint',
      title: 'Security lint (validator advisory checks)',
      rule: '10 points, minus 2 per distinct warning',
      possible: 10,
      earned: Math.max(0, 10 - 2 * input.securityWarnings.length),
      evidence: input.securityWarnings.length === 0 ? ['no warning'] : [...input.securityWarnings],
    });

  if (input.tests !== undefined) {
    const total = input.tests.passed + input.tests.failed;
    checks.push({
      id: 'tests',
      title: 'Declarative tests',
      rule: '15 points × passed / (passed + failed); 0 when there is no test',
      possible: 15,
      earned: total === 0 ? 0 : round(15 * share(input.tests.passed, total)),
      evidence: [
        `${input.tests.passed} passed, ${input.tests.failed} failed`,
        ...input.tests.failures.slice(0, 20),
      ],
    });
  }

  const described = tools.filter((tool) => {
    const length = descriptionOf(tool).length;
    return length >= 20 && length <= 1024;
  });
  checks.push({
    id: 'description-length',
    title: 'Tool descriptions: present, 20–1024 characters',
    rule: '10 points × the share of tools whose description is 20–1024 characters',
    possible: 10,
    earned: round(10 * share(described.length, tools.length)),
    evidence: tools
      .filter((tool) => !described.includes(tool))
      .map((tool) => `${String(tool['name'])}: ${descriptionOf(tool).length} characters`),
  });

  const withWhen = tools.filter((tool) => WHEN_TO_USE.test(descriptionOf(tool)));
  checks.push({
    id: 'when-to-use',
    title: 'Tool descriptions say when to use the tool',
    rule: '5 points × the share of descriptions with a when-to-use phrase ("use this when…", "use to…", "do not use…")',
    possible: 5,
    earned: round(5 * share(withWhen.length, tools.length)),
    evidence: tools
      .filter((tool) => !withWhen.includes(tool))
      .map((tool) => `${String(tool['name'])}: no when-to-use phrase`),
  });

  const duplicates: string[] = [];
  const mine = tools.map((tool) => ({
    server: '(this server)',
    name: String(tool['name']),
    description: descriptionOf(tool),
  }));
  for (const [index, a] of mine.entries())
    for (const b of [...mine.slice(index + 1), ...input.otherTools]) {
      if (normalizedName(a.name) === normalizedName(b.name))
        duplicates.push(`name: ${a.name} ≈ ${b.server}/${b.name}`);
      else if (a.description !== '' && jaccard(words(a.description), words(b.description)) >= 0.8)
        duplicates.push(`description: ${a.name} ≈ ${b.server}/${b.name}`);
    }
  checks.push({
    id: 'shadowing',
    title: 'No near-duplicate tool names or descriptions (in this server and across the fleet)',
    rule: '10 points, minus 2 per near-duplicate pair (same name ignoring case and separators, or ≥ 80% shared description words)',
    possible: 10,
    earned: Math.max(0, 10 - 2 * duplicates.length),
    evidence:
      duplicates.length === 0
        ? [`compared with ${input.otherTools.length} tools of other servers`]
        : duplicates,
  });

  const costliest = [...input.toolTokens].sort((a, b) => b.tokens - a.tokens).slice(0, 5);
  checks.push({
    id: 'token-cost',
    title: 'Token cost of tools/list',
    rule: '10 points up to 5,000 tokens, 0 from 25,000, linear between (o200k_base tokens of the tools/list result)',
    possible: 10,
    earned: round(10 * Math.min(1, Math.max(0, (25_000 - input.listTokens) / 20_000))),
    evidence: [
      `${input.listTokens} tokens for ${tools.length} tools`,
      ...costliest.map((cost) => `${cost.name}: ${cost.tokens} tokens`),
    ],
  });

  const annotated = tools.filter((tool) => {
    const annotations = tool['annotations'] as JsonObject | undefined;
    return annotations !== undefined && ('readOnlyHint' in annotations || 'destructiveHint' in annotations);
  });
  checks.push({
    id: 'annotations',
    title: 'Annotation coverage (readOnlyHint or destructiveHint declared)',
    rule: '10 points × the share of annotated tools',
    possible: 10,
    earned: round(10 * share(annotated.length, tools.length)),
    evidence: [
      `${annotated.length} of ${tools.length} tools annotated`,
      ...tools.filter((tool) => !annotated.includes(tool)).map((tool) => `${String(tool['name'])}: no hint`),
    ],
  });

  const withOutput = tools.filter((tool) => tool['outputSchema'] !== undefined);
  checks.push({
    id: 'output-schema',
    title: 'Output-schema coverage',
    rule: '5 points × the share of tools declaring an outputSchema',
    possible: 5,
    earned: round(5 * share(withOutput.length, tools.length)),
    evidence: [`${withOutput.length} of ${tools.length} tools declare an outputSchema`],
  });

  const portability = tools.map((tool) => ({
    name: String(tool['name']),
    problems: portabilityProblems(tool['inputSchema']),
  }));
  const portable = portability.filter((tool) => tool.problems.length === 0);
  checks.push({
    id: 'schema-portability',
    title: 'Input schemas portable across clients',
    rule: '5 points × the share of tools whose inputSchema has an object root and no $ref, patternProperties, if, not or root combinator',
    possible: 5,
    earned: round(5 * share(portable.length, tools.length)),
    evidence: portability.flatMap((tool) => tool.problems.map((problem) => `${tool.name}: ${problem}`)),
  });

  if (input.apps) {
    const seen = input.appsSeen ?? { tools, resources: input.resources };
    const uiUris = new Set(
      seen.resources
        .filter((resource) => String(resource['uri']).startsWith('ui://'))
        .map((resource) => String(resource['uri'])),
    );
    const linked = seen.tools.filter((tool) => {
      const ui = (tool['_meta'] as JsonObject | undefined)?.['ui'] as JsonObject | undefined;
      return typeof ui?.['resourceUri'] === 'string';
    });
    const broken = linked.filter((tool) => {
      const uri = ((tool['_meta'] as JsonObject)['ui'] as JsonObject)['resourceUri'] as string;
      return !uiUris.has(uri);
    });
    checks.push({
      id: 'mcp-apps',
      title: 'MCP Apps: tools link ui:// views the server lists',
      rule: '10 points if at least one tool links a view and every linked view is listed as a ui:// resource, else 0',
      possible: 10,
      earned: linked.length > 0 && broken.length === 0 ? 10 : 0,
      evidence: [
        `${linked.length} tools link a view; ${uiUris.size} ui:// resources listed${input.appsSeen === undefined ? '' : ' (as listed to a client advertising io.modelcontextprotocol/ui)'}`,
        ...linked.map(
          (tool) =>
            `${String(tool['name'])} → ${String(((tool['_meta'] as JsonObject)['ui'] as JsonObject)['resourceUri'])}`,
        ),
        ...broken.map((tool) => `${String(tool['name'])}: its view is not listed`),
      ],
    });
    if (input.appsRules !== undefined) {
      const applicable = input.appsRules.filter((rule) => rule.verdict !== 'not-applicable');
      const passed = applicable.filter((rule) => rule.verdict === 'pass').length;
      const warned = applicable.filter((rule) => rule.verdict === 'warn').length;
      checks.push({
        id: 'mcp-apps-rules',
        title: 'MCP Apps rules (validate --apps)',
        rule: '10 points × (rules passed + half of SHOULD rules warned) / rules that apply, from the validator’s MCP Apps rules',
        possible: 10,
        earned: round(10 * share(passed + warned / 2, applicable.length)),
        evidence: [
          `${passed} of ${applicable.length} applicable rules passed, ${warned} warned, ${applicable.length - passed - warned} failed`,
          ...applicable
            .filter((rule) => rule.verdict !== 'pass')
            .map((rule) => `${rule.id} (${rule.level}) ${rule.verdict}: ${rule.detail}`),
        ],
      });
    }
  }
  return checks;
}

export function scoreOf(checks: readonly ReviewCheck[]): { earned: number; possible: number; share: number } {
  const earned = round(checks.reduce((sum, check) => sum + check.earned, 0));
  const possible = checks.reduce((sum, check) => sum + check.possible, 0);
  return { earned, possible, share: possible === 0 ? 0 : earned / possible };
}
