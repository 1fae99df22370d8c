/**
 * Resources and resource templates: configuration, compilation, and reading.
 */
import { ProtocolError } from '../../protocol/errors.js';
import type { RevisionSpec } from '../../protocol/revisions.js';
import type {
  Annotations,
  CacheScope,
  Icon,
  InputRequiredResult,
  MetaObject,
  ReadResourceResult,
  Resource,
  ResourceContents,
  ResourceTemplate,
} from '../../protocol/types.js';
import { UriTemplate } from '../../uri-template/index.js';
import type { Caller, RequestContext } from '../context.js';
import type { Completer } from './completion.js';
import { pickFields } from './content.js';
import { compileRequiredScopes, scopedVisibility } from './scopes.js';

/** Freshness hints for a modern-era `resources/read` result. */
export interface CacheHint {
  ttlMs: number;
  scope: CacheScope;
}

/** A read returns a full result, a string (one text content), or bytes (one blob content). */
export type ResourceReturn = ReadResourceResult | string | Uint8Array | InputRequiredResult;

interface ResourceMetadata {
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  annotations?: Annotations;
  icons?: Icon[];
  _meta?: MetaObject;
  visible?: (caller: Caller) => boolean;
  /** OAuth scopes the caller's access token must grant to see and read it (see `ToolConfig.requiredScopes`). */
  requiredScopes?: readonly string[];
  cache?: CacheHint;
}

export interface ResourceConfig extends ResourceMetadata {
  uri: string;
  size?: number;
  read: (uri: string, ctx: RequestContext) => ResourceReturn | Promise<ResourceReturn>;
}

export type TemplateVariables = Record<string, string | string[]>;

export interface ResourceTemplateConfig extends ResourceMetadata {
  uriTemplate: string;
  /** Concrete resources of this template to include in `resources/list`. */
  list?: (ctx: RequestContext) => Resource[] | Promise<Resource[]>;
  read: (
    uri: string,
    variables: TemplateVariables,
    ctx: RequestContext,
  ) => ResourceReturn | Promise<ResourceReturn>;
  /** Completion per template variable. */
  complete?: Record<string, Completer>;
}

export interface CompiledResource {
  readonly uri: string;
  readonly descriptor: Resource;
  readonly config: ResourceConfig;
  json(revision: RevisionSpec): string;
}

export interface CompiledTemplate {
  readonly uriTemplate: string;
  readonly template: UriTemplate;
  readonly descriptor: ResourceTemplate;
  readonly config: ResourceTemplateConfig;
  json(revision: RevisionSpec): string;
}

function perRevisionJson<T extends object>(value: T, fields: (r: RevisionSpec) => readonly string[]) {
  const cache = new Map<RevisionSpec, string>();
  return (revision: RevisionSpec): string => {
    let json = cache.get(revision);
    if (json === undefined) {
      json = JSON.stringify(pickFields(value, fields(revision)));
      cache.set(revision, json);
    }
    return json;
  };
}

/** The config as compiled: `visible` also checks `requiredScopes`. */
function withScopes<C extends ResourceMetadata>(what: string, config: C): C {
  const required = compileRequiredScopes(what, config.requiredScopes);
  if (!required) return config;
  return { ...config, requiredScopes: required, visible: scopedVisibility(config.visible, required) };
}

function metadata(config: ResourceMetadata): Partial<Resource> {
  const out: Partial<Resource> = { name: config.name };
  if (config.title !== undefined) out.title = config.title;
  if (config.description !== undefined) out.description = config.description;
  if (config.mimeType !== undefined) out.mimeType = config.mimeType;
  if (config.annotations !== undefined) out.annotations = config.annotations;
  if (config.icons !== undefined) out.icons = config.icons;
  if (config._meta !== undefined) out._meta = config._meta;
  return out;
}

export function compileResource(config: ResourceConfig): CompiledResource {
  if (typeof config.uri !== 'string' || config.uri.length === 0)
    throw new TypeError('A resource needs a uri');
  if (typeof config.name !== 'string' || config.name.length === 0)
    throw new TypeError(`Resource ${config.uri} needs a name`);
  if (typeof config.read !== 'function') throw new TypeError(`Resource ${config.uri} needs a read function`);
  const descriptor = { uri: config.uri, ...metadata(config) } as Resource;
  if (config.size !== undefined) descriptor.size = config.size;
  return {
    uri: config.uri,
    descriptor,
    config: withScopes(`Resource ${config.uri}`, config),
    json: perRevisionJson(descriptor, (r) => r.fields.resource),
  };
}

export function compileTemplate(config: ResourceTemplateConfig): CompiledTemplate {
  if (typeof config.name !== 'string' || config.name.length === 0) {
    throw new TypeError(`Resource template ${config.uriTemplate} needs a name`);
  }
  if (typeof config.read !== 'function')
    throw new TypeError(`Resource template ${config.uriTemplate} needs a read function`);
  const template = new UriTemplate(config.uriTemplate);
  const descriptor = { uriTemplate: config.uriTemplate, ...metadata(config) } as ResourceTemplate;
  return {
    uriTemplate: config.uriTemplate,
    template,
    descriptor,
    config: withScopes(`Resource template ${config.uriTemplate}`, config),
    json: perRevisionJson(descriptor, (r) => r.fields.resourceTemplate),
  };
}

/** Normalizes what a read returned; `fallbackMimeType` comes from the resource or template definition. */
export function finishRead(
  uri: string,
  returned: ResourceReturn,
  fallbackMimeType: string | undefined,
): ReadResourceResult | InputRequiredResult {
  if (typeof returned === 'string') {
    const contents: ResourceContents = { uri, text: returned };
    if (fallbackMimeType !== undefined) contents.mimeType = fallbackMimeType;
    return { contents: [contents] };
  }
  if (returned instanceof Uint8Array) {
    const contents: ResourceContents = { uri, blob: Buffer.from(returned).toString('base64') };
    if (fallbackMimeType !== undefined) contents.mimeType = fallbackMimeType;
    return { contents: [contents] };
  }
  if (typeof returned === 'object' && returned !== null) {
    if ((returned as InputRequiredResult).resultType === 'input_required')
      return returned as InputRequiredResult;
    const contents = (returned as ReadResourceResult).contents;
    if (Array.isArray(contents)) {
      const bad = contents.findIndex(
        (c) =>
          typeof c !== 'object' ||
          c === null ||
          typeof c.uri !== 'string' ||
          (typeof (c as { text?: unknown }).text !== 'string' &&
            typeof (c as { blob?: unknown }).blob !== 'string'),
      );
      if (bad >= 0)
        throw ProtocolError.internal(
          `Reading ${uri} produced invalid contents[${bad}]: needs uri and text or blob`,
        );
      return returned as ReadResourceResult;
    }
  }
  throw ProtocolError.internal(`Reading ${uri} produced an invalid result`);
}

export function resourceNotFound(uri: string, revision: RevisionSpec): ProtocolError {
  return new ProtocolError(revision.resourceNotFoundCode, `Resource not found: ${uri}`, { uri });
}
