import { describe, expect, it } from 'vitest';
import { ClientRegistry } from './clients.js';

const METHODS = ['none', 'client_secret_basic'];
const registration = { redirect_uris: ['http://127.0.0.1/cb'], token_endpoint_auth_method: 'none' };

describe('dynamic registrations', () => {
  it('expire after registrationTtlMs; pre-registered clients stay', async () => {
    let now = 1_000_000;
    const registry = new ClientRegistry({
      supportedMethods: METHODS,
      clients: [{ client_id: 'configured', redirect_uris: ['http://127.0.0.1/cb'] }],
      registrationTtlMs: 60_000,
      now: () => now,
    });
    const registered = registry.register(registration);
    expect(await registry.find(registered.client_id)).toBeDefined();
    now += 59_999;
    expect(await registry.find(registered.client_id)).toBeDefined();
    now += 1;
    expect(await registry.find(registered.client_id)).toBeUndefined();
    expect(await registry.find('configured')).toBeDefined();
  });

  it('are capped, and expired ones make room before a registration is refused', () => {
    let now = 0;
    const registry = new ClientRegistry({
      supportedMethods: METHODS,
      maxClients: 2,
      registrationTtlMs: 1_000,
      now: () => now,
    });
    registry.register(registration);
    now = 500;
    registry.register(registration);
    expect(() => registry.register(registration)).toThrow(/Too many clients/);
    now = 1_000; // the first has expired, the second has not
    expect(registry.register(registration).client_id).toBeTypeOf('string');
    expect(() => registry.register(registration)).toThrow(/Too many clients/);
  });
});
