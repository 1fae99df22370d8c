import { describe, expect, it } from 'vitest';
import { jsonAnswer, jsonReplyOf } from './node-reply.js';

describe('light JSON answers (toNodeHandler)', () => {
  it('carry their text for the adapter and still behave as a Response', async () => {
    const response = jsonAnswer('{"ok":true}', 201, { 'content-type': 'application/json' }, true);
    expect(jsonReplyOf(response)).toEqual({
      status: 201,
      headers: { 'content-type': 'application/json' },
      json: '{"ok":true}',
    });
    expect(response).toBeInstanceOf(Response);
    expect(response.status).toBe(201);
    expect(response.ok).toBe(true);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toEqual({ ok: true });
    expect(response.bodyUsed).toBe(true);
    expect(Object.prototype.toString.call(response)).toBe('[object Response]');
  });

  it('are real Responses when the request did not come through Node', async () => {
    const response = jsonAnswer('[1]', 200, { 'content-type': 'application/json' }, false);
    expect(jsonReplyOf(response)).toBeUndefined();
    expect(await response.text()).toBe('[1]');
  });
});
