/**
 * Reserved `_meta` keys and the modern era's per-request protocol fields.
 */
import { ErrorCode, ProtocolError } from './errors.js';
import { LOGGING_LEVELS } from './types.js';
import type { ClientCapabilities, Implementation, JsonObject, LoggingLevel, ProgressToken } from './types.js';

export const MetaKey = {
  progressToken: 'progressToken',
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  logLevel: 'io.modelcontextprotocol/logLevel',
  subscriptionId: 'io.modelcontextprotocol/subscriptionId',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
  relatedTask: 'io.modelcontextprotocol/related-task',
} as const;

/** What a modern request declares about itself in `params._meta`. */
export interface ModernRequestMeta {
  protocolVersion: string;
  clientCapabilities: ClientCapabilities;
  clientInfo?: Implementation;
  logLevel?: LoggingLevel;
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function requestMeta(params: JsonObject | undefined): JsonObject | undefined {
  const meta = params?._meta;
  return isObject(meta) ? meta : undefined;
}

/** True when the request speaks the modern era: it names its protocol version in `_meta`. */
export function declaresModernMeta(params: JsonObject | undefined): boolean {
  const meta = requestMeta(params);
  return meta !== undefined && Object.prototype.hasOwnProperty.call(meta, MetaKey.protocolVersion);
}

export function progressTokenOf(params: JsonObject | undefined): ProgressToken | undefined {
  const token = requestMeta(params)?.[MetaKey.progressToken];
  return typeof token === 'string' || (typeof token === 'number' && Number.isSafeInteger(token))
    ? token
    : undefined;
}

export function isLoggingLevel(value: unknown): value is LoggingLevel {
  return typeof value === 'string' && (LOGGING_LEVELS as readonly string[]).includes(value);
}

function isImplementation(value: unknown): value is Implementation {
  return isObject(value) && typeof value.name === 'string' && typeof value.version === 'string';
}

/**
 * Reads and checks the required per-request fields. A request missing any required field is malformed:
 * -32602 (and HTTP 400), as the 2026-07-28 base protocol requires. Version support is checked by the caller.
 */
export function readModernMeta(params: JsonObject | undefined): ModernRequestMeta {
  const meta = requestMeta(params);
  if (meta === undefined) {
    throw new ProtocolError(
      ErrorCode.InvalidParams,
      'Invalid params: missing _meta with the required protocol fields',
    );
  }
  const protocolVersion = meta[MetaKey.protocolVersion];
  if (typeof protocolVersion !== 'string' || protocolVersion.length === 0) {
    throw new ProtocolError(
      ErrorCode.InvalidParams,
      `Invalid params: _meta is missing "${MetaKey.protocolVersion}"`,
    );
  }
  const capabilities = meta[MetaKey.clientCapabilities];
  if (!isObject(capabilities)) {
    throw new ProtocolError(
      ErrorCode.InvalidParams,
      `Invalid params: _meta is missing "${MetaKey.clientCapabilities}" (an object)`,
    );
  }
  const result: ModernRequestMeta = {
    protocolVersion,
    clientCapabilities: capabilities as ClientCapabilities,
  };
  const clientInfo = meta[MetaKey.clientInfo];
  if (clientInfo !== undefined) {
    if (!isImplementation(clientInfo)) {
      throw new ProtocolError(
        ErrorCode.InvalidParams,
        `Invalid params: "${MetaKey.clientInfo}" must be an object with string name and version`,
      );
    }
    result.clientInfo = clientInfo;
  }
  const logLevel = meta[MetaKey.logLevel];
  if (logLevel !== undefined) {
    if (!isLoggingLevel(logLevel)) {
      throw new ProtocolError(
        ErrorCode.InvalidParams,
        `Invalid params: "${MetaKey.logLevel}" must be one of ${LOGGING_LEVELS.join(', ')}`,
      );
    }
    result.logLevel = logLevel;
  }
  return result;
}

export function unsupportedVersionError(requested: string, supported: readonly string[]): ProtocolError {
  return new ProtocolError(ErrorCode.UnsupportedProtocolVersion, 'Unsupported protocol version', {
    supported: [...supported],
    requested,
  });
}

export function missingCapabilityError(required: ClientCapabilities, why: string): ProtocolError {
  return new ProtocolError(
    ErrorCode.MissingRequiredClientCapability,
    `Missing required client capability: ${why}`,
    { requiredCapabilities: required },
  );
}
