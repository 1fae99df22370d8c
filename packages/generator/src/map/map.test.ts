/** The mapping core on small descriptions written for each rule (files in a temporary directory). */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compileSchema, type JsonSchema } from 'mcpengine/schema';
import { describe, expect, it } from 'vitest';
import { DescriptionError } from '../errors.js';
import { loadDescription } from '../load/load.js';
import { buildApiModel, selectTools } from './build.js';
import { fit, operationName, uniqueNames } from './names.js';
import { loosen, SchemaConverter } from './schema.js';

const dir = mkdtempSync(join(tmpdir(), 'generator-map-'));
let n = 0;
function file(content: unknown, ext = 'json'): string {
  const path = join(dir, `spec-${n++}.${ext}`);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

async function model(doc: unknown) {
  return buildApiModel(await loadDescription(file(doc)));
}

const base = {
  openapi: '3.0.3',
  info: { title: 'Pets API', version: '2.1.0' },
  servers: [{ url: 'https://api.example.com/v1' }],
};

describe('names', () => {
  it('prefers operationId, then x-…-operation-id, then method and path; sanitised to the MCP pattern', () => {
    expect(operationName({ operationId: 'pets.list' }, 'get', '/pets')).toBe('pets.list');
    expect(operationName({ 'x-eov-operation-id': 'getWorkflows' }, 'get', '/workflows')).toBe('getWorkflows');
    expect(operationName({}, 'get', '/pets/{petId}/photos')).toBe('get_pets_by_petId_photos');
    expect(operationName({ operationId: 'list all/pets!' }, 'get', '/pets')).toBe('list_all_pets');
  });

  it('keeps long names within 64 characters with a stable hash, and makes colliding names all distinct', () => {
    const long = 'a'.repeat(100);
    expect(fit(long)).toHaveLength(64);
    expect(fit(long)).toBe(fit(long));
    expect(fit(long)).not.toBe(fit(`${long}b`));
    const names = uniqueNames([
      { name: 'list', key: 'get /a' },
      { name: 'list', key: 'get /b' },
      { name: 'other', key: 'get /c' },
    ]);
    expect(new Set(names).size).toBe(3);
    expect(names[2]).toBe('other');
    // Reordering the description does not rename anything.
    const swapped = uniqueNames([
      { name: 'list', key: 'get /b' },
      { name: 'list', key: 'get /a' },
    ]);
    expect(swapped).toEqual([names[1], names[0]]);
    for (const name of names) expect(name).toMatch(/^[A-Za-z0-9_.-]{1,64}$/);
  });
});

describe('schemas', () => {
  const input = () =>
    new SchemaConverter({ io: 'input', maxDepth: 10, descriptionChars: 200 }, { nodes: 1000 });

  it('turns nullable, oneOf, allOf, discriminators and readOnly into portable JSON Schema', () => {
    const cat = {
      type: 'object',
      properties: { kind: { type: 'string', enum: ['cat'] }, lives: { type: 'integer' } },
      required: ['kind'],
    };
    const dog = {
      type: 'object',
      properties: { kind: { type: 'string', enum: ['dog'] }, id: { type: 'string', readOnly: true } },
      required: ['kind', 'id'],
    };
    const out = input().convert({
      type: 'object',
      properties: {
        name: { type: 'string', nullable: true, example: 'x', 'x-internal': true, format: 'int64' },
        pet: { oneOf: [cat, dog], discriminator: { propertyName: 'kind' } },
        merged: {
          allOf: [
            { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
            { properties: { b: { type: 'number' } } },
          ],
        },
        tags: { type: 'array' },
        bad: { type: 'string', pattern: '(?i)^abc$' },
        when: { type: 'string', format: 'date-time' },
      },
    });
    expect(out).toEqual({
      type: 'object',
      properties: {
        name: { type: ['string', 'null'] },
        pet: {
          anyOf: [
            {
              type: 'object',
              properties: { kind: { type: 'string', enum: ['cat'] }, lives: { type: 'integer' } },
              required: ['kind'],
            },
            { type: 'object', properties: { kind: { type: 'string', enum: ['dog'] } }, required: ['kind'] },
          ],
          description: 'the "kind" property selects the variant',
        },
        merged: {
          type: 'object',
          properties: { a: { type: 'string' }, b: { type: 'number' } },
          required: ['a'],
        },
        tags: { type: 'array', items: {} },
        bad: { type: 'string' },
        when: { type: 'string', format: 'date-time' },
      },
    });
    expect(() => compileSchema(out as JsonSchema)).not.toThrow();
  });

  it('keeps required names an allOf part declares, and union variants beside additionalProperties: false', () => {
    // shipengine's compare_bulk_rates body (the same shape as Jira's custom context variables)
    const body = {
      type: 'object',
      additionalProperties: false,
      allOf: [{ type: 'object', properties: { rate_options: { type: 'object' } } }],
      oneOf: [
        {
          type: 'object',
          properties: { shipment_ids: { type: 'array', items: { type: 'string' } } },
          required: ['shipment_ids'],
        },
        {
          type: 'object',
          properties: { shipments: { type: 'array', items: { type: 'object' } } },
          required: ['shipments'],
        },
      ],
      required: ['rate_options'],
    };
    const out = input().convert(body) as Record<string, unknown>;
    expect(out['required']).toEqual(['rate_options']);
    expect(out['additionalProperties']).toBeUndefined();
    // the variants can be met now (additionalProperties: false refused every property a variant declares)
    const validator = compileSchema(out as JsonSchema);
    expect(validator.is({ rate_options: {}, shipment_ids: ['se-1'] })).toBe(true);
    expect(validator.is({ shipment_ids: ['se-1'] })).toBe(false);
    // without variants of their own, additionalProperties: false stays
    const closed = input().convert({
      type: 'object',
      additionalProperties: false,
      properties: { a: { type: 'string' } },
      anyOf: [{ required: ['a'] }],
    }) as Record<string, unknown>;
    expect(closed['additionalProperties']).toBe(false);
  });

  it('cuts recursion and keeps OpenAPI 3.0 exclusive bounds as numbers', () => {
    const node: Record<string, unknown> = {
      type: 'object',
      properties: { value: { type: 'number', minimum: 0, exclusiveMinimum: true } },
    };
    (node['properties'] as Record<string, unknown>)['children'] = { type: 'array', items: node };
    const out = input().convert(node) as {
      properties: { value: unknown; children: { items: { description: string } } };
    };
    expect(out.properties.value).toEqual({ type: 'number', exclusiveMinimum: 0 });
    expect(out.properties.children.items.description).toMatch(/^recursive/);
  });

  it('loosens output schemas: nothing required, nulls and extra fields allowed', () => {
    expect(
      loosen({
        type: 'object',
        properties: { id: { type: 'integer' } },
        required: ['id'],
        additionalProperties: false,
      }),
    ).toEqual({
      type: ['object', 'null'],
      properties: { id: { type: ['number', 'null'] } },
    });
  });
});

describe('operations', () => {
  it('merges parameters and a JSON body, derives annotations, output schemas and security variables', async () => {
    const { api, warnings } = await model({
      ...base,
      components: {
        securitySchemes: {
          apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
          basic: { type: 'http', scheme: 'basic' },
          oauth: {
            type: 'oauth2',
            flows: {
              clientCredentials: { tokenUrl: 'https://auth.example.com/token', scopes: { 'pets:read': '' } },
            },
          },
        },
        schemas: {
          Pet: {
            type: 'object',
            properties: { id: { type: 'integer', readOnly: true }, name: { type: 'string' } },
            required: ['name'],
          },
        },
      },
      security: [{ apiKey: [] }],
      paths: {
        '/pets/{petId}': {
          parameters: [{ name: 'petId', in: 'path', required: true, schema: { type: 'string' } }],
          get: {
            operationId: 'getPet',
            summary: 'Get a pet',
            tags: ['pets'],
            responses: {
              '200': {
                description: 'ok',
                content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } },
              },
            },
          },
          put: {
            operationId: 'updatePet',
            tags: ['pets'],
            parameters: [
              { name: 'Authorization', in: 'header', schema: { type: 'string' } },
              { name: 'dry-run', in: 'query', schema: { type: 'boolean' } },
            ],
            requestBody: {
              required: true,
              content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } },
            },
            security: [{ basic: [] }, { oauth: ['pets:read'] }],
            responses: { '204': { description: 'done' } },
          },
          delete: { operationId: 'deletePet', responses: { '204': { description: 'gone' } } },
        },
      },
    });
    expect(warnings).toEqual([]);
    expect(api.envPrefix).toBe('PETS');
    const [get, put, del] = api.tools;
    expect(get!.annotations).toEqual({
      title: 'Get a pet',
      readOnlyHint: true,
      idempotentHint: true,
      openWorldHint: true,
    });
    expect(get!.outputSchema).toEqual({
      type: 'object',
      properties: { id: { type: ['number', 'null'] }, name: { type: ['string', 'null'] } },
    });
    expect(put!.inputSchema).toEqual({
      type: 'object',
      properties: { petId: { type: 'string' }, 'dry-run': { type: 'boolean' }, name: { type: 'string' } },
      additionalProperties: false,
      required: ['petId', 'name'],
    });
    expect(put!.params.map((p) => p.name)).toEqual(['petId', 'dry-run']);
    expect(put!.body).toEqual({
      contentType: 'application/json',
      encoding: 'json',
      required: true,
      properties: [['name', 'name']],
    });
    expect(put!.security).toEqual([['basic'], ['oauth']]);
    expect(put!.annotations.destructiveHint).toBe(true);
    expect(put!.annotations.idempotentHint).toBe(true);
    expect(del!.annotations).toMatchObject({ destructiveHint: true, readOnlyHint: false });
    expect(del!.security).toEqual([['apiKey']]);
    expect(api.schemes.map((s) => s.env)).toEqual([
      { key: 'PETS_APIKEY_API_KEY' },
      { username: 'PETS_BASIC_USERNAME', password: 'PETS_BASIC_PASSWORD' },
      {
        token: 'PETS_OAUTH_ACCESS_TOKEN',
        clientId: 'PETS_OAUTH_CLIENT_ID',
        clientSecret: 'PETS_OAUTH_CLIENT_SECRET',
        scopes: 'PETS_OAUTH_SCOPES',
        refreshToken: 'PETS_OAUTH_REFRESH_TOKEN',
      },
    ]);
    for (const tool of api.tools) expect(() => compileSchema(tool.inputSchema as JsonSchema)).not.toThrow();
  });

  it('keeps a union body as one argument and files of a multipart body', async () => {
    const { api } = await model({
      ...base,
      paths: {
        '/things': {
          post: {
            operationId: 'create',
            requestBody: {
              content: {
                'application/json': {
                  schema: {
                    oneOf: [
                      { type: 'object', properties: { a: { type: 'string' } } },
                      { type: 'object', properties: { b: { type: 'string' } } },
                    ],
                  },
                },
              },
            },
            responses: { '201': { description: 'ok' } },
          },
        },
        '/upload': {
          post: {
            operationId: 'upload',
            requestBody: {
              content: {
                'multipart/form-data': {
                  schema: {
                    type: 'object',
                    properties: { file: { type: 'string', format: 'binary' }, note: { type: 'string' } },
                  },
                },
              },
            },
            responses: { '201': { description: 'ok' } },
          },
        },
      },
    });
    expect(api.tools[0]!.body).toMatchObject({ arg: 'body', encoding: 'json' });
    expect(api.tools[1]!.body).toMatchObject({ encoding: 'multipart', files: ['file'] });
    expect(
      (api.tools[1]!.inputSchema['properties'] as Record<string, { description: string }>)['file']!
        .description,
    ).toMatch(/base64.*http\(s\) URL/);
  });

  it("carries a form body's Encoding Object to the runtime (style, explode, contentType; nothing else)", async () => {
    const { api } = await model({
      ...base,
      paths: {
        '/v1/checkout/sessions': {
          post: {
            operationId: 'PostCheckoutSessions',
            requestBody: {
              content: {
                'application/x-www-form-urlencoded': {
                  schema: {
                    type: 'object',
                    properties: {
                      mode: { type: 'string' },
                      line_items: {
                        type: 'array',
                        items: { type: 'object', properties: { price: { type: 'string' } } },
                      },
                      note: { type: 'object', properties: {} },
                    },
                  },
                  encoding: {
                    line_items: { style: 'deepObject', explode: true, headers: {} },
                    note: { contentType: 'application/json' },
                    mode: {},
                  },
                },
              },
            },
            responses: { '200': { description: 'ok' } },
          },
        },
      },
    });
    expect(api.tools[0]!.body).toEqual({
      contentType: 'application/x-www-form-urlencoded',
      encoding: 'form',
      required: false,
      properties: [
        ['mode', 'mode'],
        ['line_items', 'line_items'],
        ['note', 'note'],
      ],
      fields: {
        line_items: { style: 'deepObject', explode: true },
        note: { contentType: 'application/json' },
      },
    });
  });

  it('recognises pagination and adds max_pages', async () => {
    const { api } = await model({
      ...base,
      paths: {
        '/items': {
          get: {
            operationId: 'list',
            parameters: [{ name: 'starting_after', in: 'query', schema: { type: 'string' } }],
            responses: {
              '200': {
                description: 'ok',
                content: {
                  'application/json': {
                    schema: {
                      type: 'object',
                      properties: {
                        data: { type: 'array', items: { type: 'object' } },
                        has_more: { type: 'boolean' },
                      },
                    },
                  },
                },
              },
            },
          },
        },
      },
    });
    expect(api.tools[0]!.pagination).toEqual({
      arg: 'max_pages',
      kind: 'after-last',
      param: 'starting_after',
      items: 'data',
      more: 'has_more',
    });
    expect(api.tools[0]!.inputSchema['properties']).toHaveProperty('max_pages');
  });

  it('selects tools by name, group and wildcard', async () => {
    const { api } = await model({
      ...base,
      paths: {
        '/a': { get: { operationId: 'listA', tags: ['alpha'], responses: {} } },
        '/b': {
          get: { operationId: 'listB', tags: ['beta'], responses: {} },
          delete: { operationId: 'deleteB', tags: ['beta'], responses: {} },
        },
      },
    });
    expect(
      selectTools(api.tools, { include: ['group:beta'], exclude: ['delete*'] }).map((t) => t.name),
    ).toEqual(['listB']);
  });
});

describe('loading', () => {
  it('converts Swagger 2.0 and bundles external file $refs', async () => {
    const pet = file({ type: 'object', properties: { name: { type: 'string' } } });
    const { api } = await model({
      swagger: '2.0',
      info: { title: 'Old', version: '1' },
      host: 'old.example.com',
      basePath: '/api',
      schemes: ['https'],
      paths: {
        '/pets': {
          post: {
            operationId: 'addPet',
            consumes: ['application/json'],
            parameters: [{ in: 'body', name: 'body', required: true, schema: { $ref: pet } }],
            responses: { '200': { description: 'ok' } },
          },
        },
      },
    });
    expect(api.baseUrl).toBe('https://old.example.com/api');
    expect(api.tools[0]!.inputSchema['properties']).toEqual({ name: { type: 'string' } });
  });

  it('reads YAML and says where a broken description is broken, in one line', async () => {
    const yaml = file(
      'openapi: 3.1.0\ninfo:\n  title: Y\n  version: "1"\npaths:\n  /a:\n    get:\n      responses: {}\n',
      'yaml',
    );
    expect((await loadDescription(yaml)).version).toBe('3.1.0');
    const cases: [string, RegExp][] = [
      [file('openapi: 3.0.0\ninfo: [unclosed\n', 'yaml'), /line \d+/],
      [
        file({
          openapi: '3.0.0',
          info: { title: 'x', version: '1' },
          paths: {
            '/a': {
              get: {
                responses: {
                  '200': {
                    description: 'x',
                    content: { 'application/json': { schema: { $ref: '#/components/schemas/Nope' } } },
                  },
                },
              },
            },
          },
        }),
        /Nope/,
      ],
      [file({ hello: 'world' }), /not an OpenAPI description/],
      [file({ openapi: '4.0.0', info: {}, paths: {} }), /unsupported OpenAPI version "4.0.0"/],
      [join(dir, 'missing.json'), /no such file/],
    ];
    for (const [path, expected] of cases) {
      const error = await loadDescription(path).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error, path).toBeInstanceOf(DescriptionError);
      const line = (error as DescriptionError).line('spec');
      expect(line).toMatch(expected);
      expect(line).not.toContain('\n');
    }
    await expect(model({ ...base, paths: {} })).rejects.toThrow(/no operations/);
  });
});
