export { createMemoryTransportPair } from './memory-transport.js';
