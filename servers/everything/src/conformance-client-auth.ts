/**
 * The `auth/*` client scenarios of the conformance suite, keyed by their full name (`auth/metadata-default`).
 *
 * Authorization is a separate piece of work: until it lands this registry is empty, and the everything client
 * answers an `auth/*` scenario like any unknown one (a message on stderr, exit 1). A handler added here is
 * dispatched to with the same `ScenarioRun` as the other scenarios.
 */
import type { ScenarioHandler } from './conformance-client.js';

export const AUTH_SCENARIOS: Readonly<Record<string, ScenarioHandler>> = {};
