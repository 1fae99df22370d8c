/**
 * The tools model: what one OpenAPI operation becomes, as plain JSON. The mapping core produces it; the runtime
 * serves it (`serve-openapi`) and the project emitter writes it into generated tool files, so both modes call
 * APIs the same way. Nothing here may import more than Node built-ins and `mcpengine`: these files are copied
 * verbatim into generated projects.
 */

export type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'patch' | 'head' | 'options' | 'trace';

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
export type JsonSchemaObject = { [key: string]: JsonValue };

/** Where an argument goes in the HTTP request. */
export interface ParamBinding {
  /** The argument's name in the tool's input schema (sanitised). */
  readonly arg: string;
  /** The parameter's name on the wire. */
  readonly name: string;
  readonly in: 'path' | 'query' | 'header' | 'cookie';
  readonly required: boolean;
  /** OpenAPI serialisation: `form` (query default), `simple` (path/header default), `deepObject`, … */
  readonly style: string;
  readonly explode: boolean;
  /** The parameter uses `content: application/json` instead of a schema: serialise the value as JSON. */
  readonly json?: boolean;
}

export type BodyEncoding = 'json' | 'form' | 'multipart' | 'text' | 'binary';

/**
 * How one property of a form or multipart body is written: the description's Encoding Object. With `style`,
 * `explode` or `allowReserved` present the property is serialised like a query parameter (RFC 6570 styles,
 * `form` + explode by default); otherwise by its content type (objects as JSON, other values as text).
 */
export interface FieldEncoding {
  readonly style?: string;
  readonly explode?: boolean;
  readonly allowReserved?: boolean;
  readonly contentType?: string;
}

export interface BodyBinding {
  readonly contentType: string;
  readonly encoding: BodyEncoding;
  readonly required: boolean;
  /** The body is one argument (non-object bodies, unions, name collisions). */
  readonly arg?: string;
  /** Or the body object's properties are arguments: `[argument, property]` pairs. */
  readonly properties?: readonly (readonly [string, string])[];
  /** Properties that carry files (multipart/binary): base64 content or an http(s) URL to fetch. */
  readonly files?: readonly string[];
  /** Form and multipart bodies: the Encoding Object of each property that has one (by wire name). */
  readonly fields?: Readonly<Record<string, FieldEncoding>>;
}

/**
 * How a list operation reaches its next page. `arg` is the tool argument (`max_pages`) asking for more than one
 * page; `param` is the argument carrying the cursor or page number; paths are property names from the root.
 */
export type Pagination = { readonly arg: string } & (
  | { readonly kind: 'cursor'; readonly param: string; readonly next: readonly string[] }
  | { readonly kind: 'after-last'; readonly param: string; readonly items: string; readonly more: string }
  | { readonly kind: 'next-url'; readonly next: readonly string[] }
  | { readonly kind: 'page'; readonly param: string }
  | { readonly kind: 'link' }
);

export interface ToolAnnotationsModel {
  readonly title?: string;
  readonly readOnlyHint?: boolean;
  readonly destructiveHint?: boolean;
  readonly idempotentHint?: boolean;
  readonly openWorldHint?: boolean;
}

export interface OperationTool {
  readonly name: string;
  readonly title?: string;
  readonly description: string;
  readonly method: HttpMethod;
  /** The path template, e.g. `/v1/charges/{charge}`. */
  readonly path: string;
  /** Absolute base URL of this operation when the description overrides `servers` for it. */
  readonly server?: string;
  /** The group used by progressive disclosure and by the generated project's files (the first tag). */
  readonly group: string;
  readonly inputSchema: JsonSchemaObject;
  readonly outputSchema?: JsonSchemaObject;
  readonly annotations: ToolAnnotationsModel;
  readonly params: readonly ParamBinding[];
  readonly body?: BodyBinding;
  /** Alternatives (OR) of scheme sets (AND); empty: no authentication; a `[]` alternative: optional. */
  readonly security: readonly (readonly string[])[];
  readonly pagination?: Pagination;
  /** Where the operation is in the description (JSON pointer), for messages. */
  readonly pointer: string;
}

/** An authentication scheme, with the environment variables it reads. */
export type AuthScheme =
  | {
      readonly name: string;
      readonly type: 'apiKey';
      readonly in: 'header' | 'query' | 'cookie';
      readonly param: string;
      readonly env: { readonly key: string };
    }
  | {
      readonly name: string;
      readonly type: 'bearer';
      /** The `Authorization` scheme word: `Bearer`, or another HTTP scheme the description names. */
      readonly scheme: string;
      readonly env: { readonly token: string };
    }
  | {
      readonly name: string;
      readonly type: 'basic';
      readonly env: { readonly username: string; readonly password: string };
    }
  | {
      readonly name: string;
      readonly type: 'oauth2';
      /** The client-credentials flow of the scheme, when it has one. */
      readonly clientCredentials?: { readonly tokenUrl: string };
      /** The authorization-code flow (run with PKCE through a loopback redirect), when it has one. */
      readonly authorizationCode?: { readonly authorizationUrl: string; readonly tokenUrl: string };
      readonly scopes: readonly string[];
      readonly env: {
        /** A token obtained elsewhere; used as is when set. */
        readonly token: string;
        readonly clientId: string;
        readonly clientSecret: string;
        readonly scopes: string;
        readonly refreshToken: string;
      };
    };

export interface ApiModel {
  readonly title: string;
  readonly version: string;
  readonly description?: string;
  /** The base URL from the description's `servers` (absolute), when it has one. */
  readonly baseUrl?: string;
  /** Prefix of every environment variable this API reads (`STRIPE` → `STRIPE_BASE_URL`, …). */
  readonly envPrefix: string;
  readonly schemes: readonly AuthScheme[];
  readonly tools: readonly OperationTool[];
  /**
   * Tokens per byte of this API's `tools/list` JSON, measured with a real tokenizer (o200k_base) when the
   * description was mapped; the runtime estimates the list's token cost with it to choose progressive disclosure.
   */
  readonly tokensPerByte?: number;
}
