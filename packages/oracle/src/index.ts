/**
 * @mcpengine/oracle: the official-schema wire oracle, and taps that feed it from live conversations (including a
 * hand-driven HTTP peer).
 */
export { REVISIONS, type Revision, type Side } from './revisions.js';
export { BUNDLED_SPEC_DIR, locateSpecDir, SPEC_DIR_ENV } from './spec-dir.js';
export { WireOracle, defaultOracle, type CheckContext } from './wire-oracle.js';
export { formatViolation, type WireViolation } from './wire-violation.js';
export { WireTap, type WireTapOptions } from './wire-tap.js';
export { tapTransport, type TransportLike, type TransportHandlersLike } from './tap-transport.js';
export {
  assertHttpTapsClean,
  HttpPeer,
  MODERN_VERSION,
  modernMeta,
  SseReader,
  type Answer,
  type Fetcher,
  type SseEvent,
} from './http-peer.js';
