/**
 * One operation → one tool: parameters (path, query, header, cookie) and the request body merged into one input
 * object, an output schema from the 2xx JSON object response, annotations from the HTTP method, the security
 * requirement, pagination, and a description within a budget.
 */
import type {
  BodyBinding,
  BodyEncoding,
  FieldEncoding,
  HttpMethod,
  JsonSchemaObject,
  JsonValue,
  OperationTool,
  ParamBinding,
  ToolAnnotationsModel,
} from '../runtime/model.js';
import { detectPagination } from './pagination.js';
import { loosen, SchemaConverter, shorten, type SchemaBudget } from './schema.js';
import { requirementOf } from './security.js';

type Raw = Record<string, unknown>;

function isObject(value: unknown): value is Raw {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export interface MapSettings {
  /** Characters of a tool description. */
  readonly descriptionChars: number;
  /** Characters of an argument description. */
  readonly argumentDescriptionChars: number;
  /** Subschemas of a tool's input schema, and how deep it goes. */
  readonly schemaNodes: number;
  readonly maxDepth: number;
  /** The same for output schemas, which only inform (kept small: they cost tokens in every tools/list). */
  readonly outputNodes: number;
  readonly outputDepth: number;
}

export const DEFAULT_SETTINGS: MapSettings = {
  descriptionChars: 1_000,
  argumentDescriptionChars: 300,
  schemaNodes: 1_500,
  maxDepth: 10,
  outputNodes: 60,
  outputDepth: 3,
};

export interface OperationContext {
  readonly settings: MapSettings;
  readonly schemes: ReadonlySet<string>;
  readonly globalSecurity: unknown;
  /** Resolves a server URL of the description (variables, relative URLs); undefined when not absolute. */
  readonly serverUrl: (servers: unknown) => string | undefined;
  readonly warn: (message: string) => void;
}

/** A media type's `encoding` map, reduced to what the runtime needs (style, explode, allowReserved, contentType). */
function fieldEncodings(raw: unknown): Record<string, FieldEncoding> {
  const out: Record<string, FieldEncoding> = {};
  if (!isObject(raw)) return out;
  for (const [property, entry] of Object.entries(raw)) {
    if (!isObject(entry)) continue;
    const field: { -readonly [K in keyof FieldEncoding]: FieldEncoding[K] } = {};
    if (typeof entry['style'] === 'string') field.style = entry['style'];
    if (typeof entry['explode'] === 'boolean') field.explode = entry['explode'];
    if (typeof entry['allowReserved'] === 'boolean') field.allowReserved = entry['allowReserved'];
    if (typeof entry['contentType'] === 'string') field.contentType = entry['contentType'];
    if (Object.keys(field).length > 0) out[property] = field;
  }
  return out;
}

/** Why an operation could not become a tool (reported; the rest of the API is still served). */
export class OperationRefusal extends Error {
  override readonly name = 'OperationRefusal';
}

const IGNORED_HEADERS = new Set(['accept', 'content-type', 'authorization']);
/** A body whose schema has only these keywords can become top-level arguments without losing a constraint. */
const FLATTENABLE = new Set(['type', 'properties', 'required', 'description', 'additionalProperties']);

function argName(name: string): string {
  const clean = name
    .replace(/[^A-Za-z0-9_.-]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 64);
  return clean === '' ? 'param' : clean;
}

function annotationsFor(method: HttpMethod, title: string | undefined): ToolAnnotationsModel {
  const base = title === undefined ? {} : { title };
  switch (method) {
    case 'get':
    case 'head':
    case 'options':
    case 'trace':
      return { ...base, readOnlyHint: true, idempotentHint: true, openWorldHint: true };
    case 'delete':
      return {
        ...base,
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: true,
        openWorldHint: true,
      };
    case 'put':
      return {
        ...base,
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: true,
        openWorldHint: true,
      };
    case 'patch':
      return {
        ...base,
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: false,
        openWorldHint: true,
      };
    case 'post':
      return {
        ...base,
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: true,
      };
  }
}

function encodingOf(contentType: string): BodyEncoding {
  const type = contentType.toLowerCase();
  if (
    type === 'application/json' ||
    type.endsWith('+json') ||
    type === '*/*' ||
    type === 'application/*' ||
    type === 'text/json'
  )
    return 'json';
  if (type === 'application/x-www-form-urlencoded') return 'form';
  if (type.startsWith('multipart/')) return 'multipart';
  if (
    type.startsWith('text/') ||
    type.includes('xml') ||
    type === 'application/yaml' ||
    type === 'application/x-yaml'
  )
    return 'text';
  return 'binary';
}

const BODY_PREFERENCE: BodyEncoding[] = ['json', 'form', 'multipart', 'text', 'binary'];

function pickContent(content: Raw): [string, Raw] | undefined {
  const entries = Object.entries(content).filter((entry): entry is [string, Raw] => isObject(entry[1]));
  for (const encoding of BODY_PREFERENCE) {
    const found = entries.find(([type]) => encodingOf(type) === encoding);
    if (found) return found;
  }
  return undefined;
}

function description(
  operation: Raw,
  method: string,
  path: string,
  limit: number,
): { title?: string; text: string } {
  const summary = typeof operation['summary'] === 'string' ? shorten(operation['summary'], 100) : '';
  const details = typeof operation['description'] === 'string' ? operation['description'] : '';
  const parts: string[] = [];
  if (operation['deprecated'] === true) parts.push('[Deprecated]');
  if (summary !== '') parts.push(summary.endsWith('.') ? summary : `${summary}.`);
  if (details !== '' && shorten(details, 200) !== summary) parts.push(details);
  let text = parts.length === 0 ? `${method.toUpperCase()} ${path}` : shorten(parts.join(' '), limit);
  if (parts.length > 0 && !text.includes(path)) {
    const withPath = `${text} (${method.toUpperCase()} ${path})`;
    if (withPath.length <= limit + path.length + 12) text = withPath;
  }
  return { ...(summary === '' ? {} : { title: summary }), text };
}

export function mapOperation(
  method: HttpMethod,
  path: string,
  operation: Raw,
  pathItem: Raw,
  pointer: string,
  ctx: OperationContext,
): Omit<OperationTool, 'name'> & { readonly baseName: string } {
  const settings = ctx.settings;
  const budget: SchemaBudget = { nodes: settings.schemaNodes };
  const input = new SchemaConverter(
    { io: 'input', maxDepth: settings.maxDepth, descriptionChars: settings.argumentDescriptionChars },
    budget,
  );

  // Parameters: path-level ones, overridden by operation-level ones with the same name and location.
  const declared = new Map<string, Raw>();
  for (const list of [pathItem['parameters'], operation['parameters']]) {
    if (!Array.isArray(list)) continue;
    for (const param of list) {
      if (!isObject(param) || typeof param['name'] !== 'string' || typeof param['in'] !== 'string') continue;
      declared.set(`${param['in']}:${param['name']}`, param);
    }
  }
  const properties: Record<string, JsonValue> = {};
  const required: string[] = [];
  const params: ParamBinding[] = [];
  const used = new Set<string>();
  const claim = (wanted: string, where: string): string => {
    let name = argName(wanted);
    if (used.has(name)) name = argName(`${wanted}_${where}`);
    for (let i = 2; used.has(name); i++) name = argName(`${wanted}_${where}_${i}`);
    used.add(name);
    return name;
  };
  const queryInfo: { arg: string; name: string; integer: boolean }[] = [];
  const pathParams = new Set([...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!));
  for (const param of declared.values()) {
    const where = param['in'] as string;
    const name = param['name'] as string;
    if (where !== 'path' && where !== 'query' && where !== 'header' && where !== 'cookie') continue;
    if (where === 'header' && IGNORED_HEADERS.has(name.toLowerCase())) continue;
    if (where === 'path' && !pathParams.has(name)) {
      ctx.warn(`${pointer}: path parameter "${name}" does not appear in the path; ignored`);
      continue;
    }
    let schema: unknown = param['schema'];
    let json = false;
    if (schema === undefined && isObject(param['content'])) {
      const first = Object.values(param['content'])[0];
      schema = isObject(first) ? first['schema'] : undefined;
      json = true;
    }
    const converted = input.convert(schema ?? { type: 'string' });
    const desc = typeof param['description'] === 'string' ? param['description'] : '';
    const notes = [
      desc,
      where === 'path' || where === 'query' ? '' : `(${where})`,
      param['deprecated'] === true ? 'deprecated' : '',
    ]
      .filter((n) => n !== '')
      .join(' ');
    if (notes !== '')
      converted['description'] = shorten(
        `${notes}${converted['description'] && !desc.includes(String(converted['description'])) ? `; ${converted['description']}` : ''}`,
        settings.argumentDescriptionChars,
      );
    const arg = claim(name, where);
    properties[arg] = converted;
    const isRequired = where === 'path' || param['required'] === true;
    if (isRequired) required.push(arg);
    const defaultStyle = where === 'query' || where === 'cookie' ? 'form' : 'simple';
    const style = typeof param['style'] === 'string' ? param['style'] : defaultStyle;
    params.push({
      arg,
      name,
      in: where,
      required: isRequired,
      style,
      explode: typeof param['explode'] === 'boolean' ? param['explode'] : style === 'form',
      ...(json ? { json: true } : {}),
    });
    if (where === 'query') {
      const t = isObject(schema) ? schema['type'] : undefined;
      queryInfo.push({ arg, name, integer: t === 'integer' || t === 'number' });
    }
  }
  for (const name of pathParams) {
    if (!params.some((p) => p.in === 'path' && p.name === name)) {
      // Undeclared path parameters are common in real descriptions; they still have to be sent.
      const arg = claim(name, 'path');
      properties[arg] = { type: 'string', description: `path parameter ${name}` };
      required.push(arg);
      params.push({ arg, name, in: 'path', required: true, style: 'simple', explode: false });
    }
  }

  // Request body
  let body: BodyBinding | undefined;
  const requestBody = operation['requestBody'];
  if (isObject(requestBody) && isObject(requestBody['content'])) {
    const picked = pickContent(requestBody['content']);
    if (picked !== undefined) {
      const [contentType, media] = picked;
      const encoding = encodingOf(contentType);
      const bodyRequired = requestBody['required'] === true;
      const raw = media['schema'];
      const converted =
        encoding === 'binary'
          ? {
              type: 'string',
              description: 'file content: base64 (or a data: URL), or an http(s) URL to fetch it from',
            }
          : input.convert(raw ?? (encoding === 'text' ? { type: 'string' } : {}));
      const files =
        encoding === 'multipart' && isObject(raw) && isObject(raw['properties'])
          ? Object.entries(raw['properties'])
              .filter(([, sub]) => SchemaConverter.isBinary(sub))
              .map(([key]) => key)
          : [];
      const fields = encoding === 'form' || encoding === 'multipart' ? fieldEncodings(media['encoding']) : {};
      const withFields = Object.keys(fields).length > 0 ? { fields } : {};
      const bodyProps = isObject(converted['properties'])
        ? (converted['properties'] as Record<string, JsonValue>)
        : undefined;
      const flat =
        bodyProps !== undefined &&
        (encoding === 'json' || encoding === 'form' || encoding === 'multipart') &&
        Object.keys(converted).every((key) => FLATTENABLE.has(key)) &&
        (converted['type'] === undefined || converted['type'] === 'object') &&
        Object.keys(bodyProps).every((key) => argName(key) === key && !used.has(key));
      if (flat) {
        const pairs: [string, string][] = [];
        for (const [key, schema] of Object.entries(bodyProps!)) {
          used.add(key);
          properties[key] = schema;
          pairs.push([key, key]);
        }
        const bodyRequiredProps = Array.isArray(converted['required'])
          ? (converted['required'] as string[])
          : [];
        if (bodyRequired) required.push(...bodyRequiredProps.filter((key) => key in bodyProps!));
        body = {
          contentType,
          encoding,
          required: bodyRequired,
          properties: pairs,
          ...(files.length > 0 ? { files } : {}),
          ...withFields,
        };
      } else {
        const arg = used.has('body') ? claim('request_body', 'body') : claim('body', 'body');
        const desc = typeof requestBody['description'] === 'string' ? requestBody['description'] : '';
        properties[arg] =
          desc === '' || converted['description'] !== undefined
            ? converted
            : { ...converted, description: shorten(desc, settings.argumentDescriptionChars) };
        if (bodyRequired) required.push(arg);
        body = {
          contentType,
          encoding,
          required: bodyRequired,
          arg,
          ...(files.length > 0 ? { files } : {}),
          ...withFields,
        };
      }
    } else
      ctx.warn(
        `${pointer}: request body without a usable media type; the operation is called without a body`,
      );
  }

  // Responses: the first 2xx JSON answer gives the output schema and the pagination shape.
  let responseSchema: unknown;
  let responseHeaders: string[] = [];
  const responses = isObject(operation['responses']) ? operation['responses'] : {};
  for (const code of Object.keys(responses).sort()) {
    if (!/^2(\d\d|XX)$/i.test(code)) continue;
    const response = responses[code];
    if (!isObject(response)) continue;
    responseHeaders = isObject(response['headers']) ? Object.keys(response['headers']) : [];
    if (isObject(response['content'])) {
      const json = Object.entries(response['content']).find(
        ([type]) => encodingOf(type) === 'json' && type !== '*/*',
      );
      if (json && isObject(json[1])) responseSchema = json[1]['schema'];
    }
    break;
  }
  let outputSchema: JsonSchemaObject | undefined;
  if (isObject(responseSchema)) {
    const output = new SchemaConverter(
      { io: 'output', maxDepth: settings.outputDepth, descriptionChars: 60 },
      { nodes: settings.outputNodes },
    ).convert(responseSchema);
    const isObjectSchema =
      (output['type'] === 'object' || (output['type'] === undefined && output['properties'] !== undefined)) &&
      output['anyOf'] === undefined &&
      output['allOf'] === undefined;
    if (isObjectSchema) {
      const loose = loosen(output) as JsonSchemaObject;
      loose['type'] = 'object';
      outputSchema = loose;
    }
  }

  let pagination: OperationTool['pagination'];
  if (method === 'get') {
    const arg = used.has('max_pages') ? claim('mcp_max_pages', 'pages') : 'max_pages';
    pagination = detectPagination(queryInfo, responseSchema, responseHeaders, arg);
    if (pagination !== undefined) {
      used.add(arg);
      properties[arg] = {
        type: 'integer',
        minimum: 1,
        maximum: 10,
        description: 'how many pages to fetch and merge (default 1)',
      };
    }
  }

  const security = requirementOf(operation['security'] ?? ctx.globalSecurity, ctx.schemes);
  if (security.dropped.length > 0 && security.alternatives.length === 0)
    ctx.warn(
      `${pointer}: security scheme ${security.dropped.join(', ')} is not supported or not defined; the operation is called without credentials`,
    );

  const server = ctx.serverUrl(operation['servers']) ?? ctx.serverUrl(pathItem['servers']);
  const tags = Array.isArray(operation['tags'])
    ? operation['tags'].filter((t): t is string => typeof t === 'string' && t.trim() !== '')
    : [];
  const group =
    tags[0]?.trim() ??
    path.split('/').find((s) => s !== '' && !s.startsWith('{') && !/^v\d+(\.\d+)?$/.test(s) && s !== 'api') ??
    'default';
  const { title, text } = description(operation, method, path, settings.descriptionChars);
  const inputSchema: JsonSchemaObject = { type: 'object', properties, additionalProperties: false };
  const uniqueRequired = [...new Set(required)];
  if (uniqueRequired.length > 0) inputSchema['required'] = uniqueRequired;
  return {
    baseName: '',
    ...(title === undefined ? {} : { title }),
    description: text,
    method,
    path,
    ...(server === undefined ? {} : { server }),
    group,
    inputSchema,
    ...(outputSchema === undefined ? {} : { outputSchema }),
    annotations: annotationsFor(method, title),
    params,
    ...(body === undefined ? {} : { body }),
    security: security.alternatives,
    ...(pagination === undefined ? {} : { pagination }),
    pointer,
  };
}
