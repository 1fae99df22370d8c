import { describe, expect, it } from 'vitest';
import { accepts, HostPolicy, isJsonContentType, parseHost } from './security.js';

describe('HostPolicy', () => {
  it('accepts loopback hosts on any port by default and refuses others', () => {
    const policy = new HostPolicy();
    for (const host of ['localhost', 'localhost:3000', '127.0.0.1:8080', '[::1]:9', 'LOCALHOST:1']) {
      expect(policy.check(host, null)).toBeUndefined();
    }
    for (const host of [
      'evil.example.com',
      'evil.example.com:3000',
      '127.0.0.1.nip.io',
      '10.0.0.1',
      '',
      'localhost:1, evil.com',
    ]) {
      expect(policy.check(host, null)).toMatch(/not allowed/);
    }
    expect(policy.check(null, null)).toMatch(/not allowed/);
  });

  it('answers a repeated Host/Origin pair from its last answer, and a changed pair afresh', () => {
    const policy = new HostPolicy();
    for (let round = 0; round < 2; round++) {
      expect(policy.check('localhost:3000', null)).toBeUndefined();
      expect(policy.check('localhost:3000', null)).toBeUndefined();
      expect(policy.check('evil.example.com', null)).toMatch(/not allowed/);
      expect(policy.check('evil.example.com', null)).toMatch(/not allowed/);
      expect(policy.check('localhost:3000', 'http://evil.example.com')).toMatch(/Origin/);
      expect(policy.check('localhost:3000', 'http://localhost:5173')).toBeUndefined();
    }
  });

  it('pins ports when configured with host:port', () => {
    const policy = new HostPolicy(['example.com:8443', 'localhost']);
    expect(policy.check('example.com:8443', null)).toBeUndefined();
    expect(policy.check('example.com:8080', null)).toMatch(/not allowed/);
    expect(policy.check('localhost:1', null)).toBeUndefined();
  });

  it('accepts origins whose host passes, refuses foreign, opaque and non-http origins', () => {
    const policy = new HostPolicy();
    expect(policy.check('localhost:3000', 'http://localhost:5173')).toBeUndefined();
    expect(policy.check('localhost:3000', 'https://127.0.0.1')).toBeUndefined();
    for (const origin of [
      'http://evil.example.com',
      'null',
      'file://',
      'chrome-extension://abc',
      'not a url',
    ]) {
      expect(policy.check('localhost:3000', origin)).toMatch(/Origin/);
    }
  });

  it('uses an explicit origin list, and trusts only loopback origins without a host check', () => {
    const explicit = new HostPolicy(['app.example.com'], ['https://app.example.com']);
    expect(explicit.check('app.example.com', 'https://app.example.com')).toBeUndefined();
    expect(explicit.check('app.example.com', 'https://other.example.com')).toMatch(/Origin/);
    const open = new HostPolicy(false);
    expect(open.check('anything.example.com', null)).toBeUndefined();
    expect(open.check('anything.example.com', 'http://anything.example.com')).toMatch(/Origin/);
    expect(() => new HostPolicy(['bad host!'])).toThrow(TypeError);
  });

  it('parses hosts', () => {
    expect(parseHost('[::1]:80')).toEqual({ hostname: '[::1]', port: '80' });
    expect(parseHost('Example.COM')).toEqual({ hostname: 'example.com', port: undefined });
    expect(parseHost('a b')).toBeUndefined();
  });
});

describe('media types', () => {
  it('matches Accept ranges with wildcards and q=0', () => {
    expect(accepts('application/json, text/event-stream', 'text/event-stream')).toBe(true);
    expect(accepts('*/*', 'application/json')).toBe(true);
    expect(accepts('application/*;q=0.5', 'application/json')).toBe(true);
    expect(accepts('text/event-stream;q=0', 'text/event-stream')).toBe(false);
    expect(accepts('text/html', 'application/json')).toBe(false);
    expect(accepts(null, 'application/json')).toBe(false);
    expect(accepts('', 'application/json')).toBe(false);
  });

  it('answers a repeated header afresh for each media type asked', () => {
    for (let round = 0; round < 2; round++) {
      expect(accepts('text/event-stream', 'text/event-stream')).toBe(true);
      expect(accepts('text/event-stream', 'application/json')).toBe(false);
      expect(accepts('application/json', 'application/json')).toBe(true);
      expect(accepts('application/json', 'text/event-stream')).toBe(false);
      expect(isJsonContentType('application/json')).toBe(true);
      expect(isJsonContentType('text/plain')).toBe(false);
    }
  });

  it('accepts JSON content types in UTF-8 only', () => {
    expect(isJsonContentType('application/json')).toBe(true);
    expect(isJsonContentType('Application/JSON; charset="UTF-8"')).toBe(true);
    expect(isJsonContentType('application/json; charset=latin1')).toBe(false);
    expect(isJsonContentType('text/plain')).toBe(false);
    expect(isJsonContentType('application/json-seq')).toBe(false);
    expect(isJsonContentType(null)).toBe(false);
  });
});
