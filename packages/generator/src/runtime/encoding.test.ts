/**
 * Form and multipart bodies, one case per rule of the OpenAPI 3.0/3.1 Encoding Object. Expected values come from
 * the specification: the style table of the Parameter Object (`color` = `["blue","black","brown"]` or
 * `{"R":100,"G":200,"B":150}`), the "URL Encoded Form with JSON Values" example of OpenAPI 3.1.1 (no `encoding`:
 * objects as JSON, strings as text; `contentType: application/json` quotes a string), and Stripe's bracket
 * convention for what the specification leaves undefined (deepObject arrays and nesting: `items[0][price]=…`).
 */
import { describe, expect, it } from 'vitest';
import type { FieldEncoding, OperationTool } from './model.js';
import { buildRequest, formPairs } from './request.js';

const ARRAY = ['blue', 'black', 'brown'];
const OBJECT = { R: 100, G: 200, B: 150 };

const pairs = (value: unknown, encoding?: FieldEncoding) =>
  formPairs({ color: value }, encoding === undefined ? {} : { color: encoding });
const body = (value: Record<string, unknown>, fields: Record<string, FieldEncoding> = {}) =>
  new URLSearchParams(formPairs(value, fields)).toString();

describe('application/x-www-form-urlencoded bodies', () => {
  it('without an Encoding Object: objects as JSON, scalars as text, arrays repeat the name (OpenAPI 3.1.1 example)', () => {
    const address = {
      streetAddress: '123 Example Dr.',
      city: 'Somewhere',
      state: 'CA',
      zip: '99999+1234',
    };
    const encoded = body({ id: 'f81d4fae-7dec-11d0-a765-00a0c91e6bf6', address });
    // The specification's body, percent-encoding `:` and `,` as well (equivalent after decoding).
    expect(decodeURIComponent(encoded.replace(/\+/g, ' '))).toBe(
      'id=f81d4fae-7dec-11d0-a765-00a0c91e6bf6&address={"streetAddress":"123 Example Dr.","city":"Somewhere","state":"CA","zip":"99999+1234"}',
    );
    expect(encoded).toContain('%2299999%2B1234%22');
    expect(pairs(ARRAY)).toEqual([
      ['color', 'blue'],
      ['color', 'black'],
      ['color', 'brown'],
    ]);
    expect(formPairs({ n: 5, ok: true })).toEqual([
      ['n', '5'],
      ['ok', 'true'],
    ]);
  });

  it('contentType application/json (no style): the value as JSON, a string quoted', () => {
    expect(pairs('f81d4fae', { contentType: 'application/json' })).toEqual([['color', '"f81d4fae"']]);
    expect(pairs(OBJECT, { contentType: 'application/json' })).toEqual([
      ['color', '{"R":100,"G":200,"B":150}'],
    ]);
  });

  it('style form, explode true (the default once a style field is present)', () => {
    const expected = [
      ['color', 'blue'],
      ['color', 'black'],
      ['color', 'brown'],
    ];
    expect(pairs(ARRAY, { style: 'form', explode: true })).toEqual(expected);
    expect(pairs(ARRAY, { style: 'form' })).toEqual(expected);
    expect(pairs(ARRAY, { explode: true })).toEqual(expected);
    // `{?color*}` with an object: one pair per key, the property name is not sent.
    expect(body({ color: OBJECT }, { color: { style: 'form', explode: true } })).toBe('R=100&G=200&B=150');
  });

  it('style form, explode false: comma-separated', () => {
    expect(body({ color: ARRAY }, { color: { style: 'form', explode: false } })).toBe(
      'color=blue%2Cblack%2Cbrown',
    );
    expect(pairs(OBJECT, { style: 'form', explode: false })).toEqual([['color', 'R,100,G,200,B,150']]);
    // explode false alone: style form.
    expect(pairs(ARRAY, { explode: false })).toEqual([['color', 'blue,black,brown']]);
  });

  it('spaceDelimited and pipeDelimited arrays', () => {
    expect(body({ color: ARRAY }, { color: { style: 'spaceDelimited', explode: false } })).toBe(
      'color=blue+black+brown',
    );
    expect(pairs(ARRAY, { style: 'pipeDelimited', explode: false })).toEqual([['color', 'blue|black|brown']]);
  });

  it('style deepObject: color[R]=100&color[G]=200&color[B]=150', () => {
    expect(pairs(OBJECT, { style: 'deepObject', explode: true })).toEqual([
      ['color[R]', '100'],
      ['color[G]', '200'],
      ['color[B]', '150'],
    ]);
    // A scalar under deepObject (Stripe's `metadata: ""` to clear it) is the plain pair.
    expect(pairs('', { style: 'deepObject', explode: true })).toEqual([['color', '']]);
  });

  it('deepObject arrays and nesting the way Stripe reads them: indexed brackets, at every level', () => {
    const deep = { style: 'deepObject', explode: true };
    const encoded = body(
      {
        mode: 'payment',
        line_items: [
          { price: 'price_1', quantity: 2 },
          { price_data: { currency: 'usd', product_data: { name: 'T-shirt' } }, quantity: 1 },
        ],
        expand: ['customer', 'invoice'],
        metadata: { order: '42' },
        payment_method_types: [],
      },
      { line_items: deep, expand: deep, metadata: deep, payment_method_types: deep },
    );
    expect(decodeURIComponent(encoded)).toBe(
      [
        'mode=payment',
        'line_items[0][price]=price_1',
        'line_items[0][quantity]=2',
        'line_items[1][price_data][currency]=usd',
        'line_items[1][price_data][product_data][name]=T-shirt',
        'line_items[1][quantity]=1',
        'expand[0]=customer',
        'expand[1]=invoice',
        'metadata[order]=42',
      ].join('&'),
    );
  });

  it('an Encoding Object for another property changes nothing for this one', () => {
    expect(formPairs({ a: { x: 1 } }, { b: { style: 'deepObject' } })).toEqual([['a', '{"x":1}']]);
  });
});

const nowhere = async () => new Blob([]);
function op(body: OperationTool['body'], params: OperationTool['params'] = []): OperationTool {
  return {
    name: 'op',
    description: 'op',
    method: 'post',
    path: '/op',
    group: 'g',
    inputSchema: { type: 'object' },
    annotations: {},
    params,
    security: [],
    pointer: '/paths/~1op/post',
    ...(body === undefined ? {} : { body }),
  };
}
const noAuth = { headers: {}, query: [], cookies: [] };

describe('multipart/form-data bodies', () => {
  it('one part per property; arrays repeat the name; objects are JSON unless a style is given', async () => {
    const request = await buildRequest(
      op({
        contentType: 'multipart/form-data',
        encoding: 'multipart',
        required: true,
        properties: [
          ['purpose', 'purpose'],
          ['tags', 'tags'],
          ['address', 'address'],
          ['file_link_data', 'file_link_data'],
        ],
        fields: { file_link_data: { style: 'deepObject', explode: true } },
      }),
      {
        purpose: 'dispute_evidence',
        tags: ['a', 'b'],
        address: { city: 'Somewhere' },
        file_link_data: { create: true, metadata: { k: 'v' } },
      },
      'http://127.0.0.1:9',
      noAuth,
      {},
      nowhere,
    );
    const form = request.body as FormData;
    expect([...form.entries()].map(([name, value]) => [name, String(value)])).toEqual([
      ['purpose', 'dispute_evidence'],
      ['tags', 'a'],
      ['tags', 'b'],
      ['address', '{"city":"Somewhere"}'],
      ['file_link_data[create]', 'true'],
      ['file_link_data[metadata][k]', 'v'],
    ]);
  });
});

describe('query parameters', () => {
  it('deepObject arrays are indexed like body fields (expand[0]=…)', async () => {
    const request = await buildRequest(
      op(undefined, [
        { arg: 'expand', name: 'expand', in: 'query', required: false, style: 'deepObject', explode: true },
        { arg: 'color', name: 'color', in: 'query', required: false, style: 'form', explode: true },
      ]),
      { expand: ['customer', 'invoice'], color: OBJECT },
      'http://127.0.0.1:9',
      noAuth,
      {},
      nowhere,
    );
    expect(decodeURIComponent(request.url.search)).toBe(
      '?expand[0]=customer&expand[1]=invoice&R=100&G=200&B=150',
    );
  });
});
