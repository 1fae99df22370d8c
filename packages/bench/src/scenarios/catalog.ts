/**
 * Every scenario of the suite, in the order they run.
 */
import { CATALOG_FIELDS, CATALOG_TOOLS } from '../servers/fixtures.js';
import { variant, type ThroughputSpec } from './throughput.js';

const ECHO = 'tools/call of `echo` (3 validated fields: a string, b integer ≥ 0, c boolean; a, b required)';

export const THROUGHPUT: readonly ThroughputSpec[] = [
  {
    id: 'stdio-seq',
    title: 'stdio tools/call, sequential (1 in flight)',
    transport: 'stdio',
    workload: 'echo-call',
    inflight: 1,
    variants: [
      variant('mcpengine', 'legacy'),
      variant('sdk1', 'legacy'),
      variant('sdk2', 'legacy'),
      variant('raw', 'legacy'),
    ],
    notes: [`${ECHO}, legacy session (2025-11-25) on one stdio connection.`],
  },
  {
    id: 'stdio-64',
    title: 'stdio tools/call, 64 in flight',
    transport: 'stdio',
    workload: 'echo-call',
    inflight: 64,
    variants: [
      variant('mcpengine', 'legacy'),
      variant('sdk1', 'legacy'),
      variant('sdk2', 'legacy'),
      variant('raw', 'legacy'),
    ],
    notes: [`${ECHO}, legacy session (2025-11-25), 64 pipelined requests in flight.`],
  },
  {
    id: 'http-modern',
    title: 'Streamable HTTP tools/call, modern era (2026-07-28), 32 connections',
    transport: 'http',
    workload: 'echo-call',
    connections: 32,
    variants: [variant('mcpengine', 'modern'), variant('sdk2', 'modern'), variant('raw', 'modern')],
    notes: [
      `${ECHO}; every request carries its _meta (protocolVersion, clientCapabilities, clientInfo) and the standard headers (MCP-Protocol-Version, Mcp-Method, Mcp-Name).`,
      'SDK 1.x does not speak 2026-07-28.',
    ],
  },
  {
    id: 'http-legacy',
    title: 'Streamable HTTP tools/call, legacy era (2025-11-25), one session, 32 connections',
    transport: 'http',
    workload: 'echo-call',
    connections: 32,
    variants: [
      variant('mcpengine', 'legacy', { session: true }),
      variant('sdk1', 'legacy', { session: true }),
      variant('sdk2', 'legacy', { label: 'SDK 2.x (stateless legacy)' }),
      variant('raw', 'legacy'),
    ],
    notes: [
      `${ECHO}; one session opened with initialize, every request carries Mcp-Session-Id and MCP-Protocol-Version.`,
      'SDK 2.x serves the legacy era statelessly only (a fresh server per request, no session): shown for reference.',
    ],
  },
  {
    id: 'http-list',
    title: `Streamable HTTP tools/list, ${CATALOG_TOOLS} tools × ${CATALOG_FIELDS} fields, modern era, 32 connections`,
    transport: 'http',
    workload: 'catalog-list',
    catalog: true,
    connections: 32,
    variants: [variant('mcpengine', 'modern'), variant('sdk2', 'modern'), variant('raw', 'modern')],
    notes: [
      `tools/list of ${CATALOG_TOOLS + 1} tools (the catalogue plus echo), each catalogue tool with ${CATALOG_FIELDS} described fields.`,
    ],
  },
  {
    id: 'http-driver',
    title: 'Driver check: raw node:http JSON echo, 32 connections, by HTTP client',
    transport: 'http',
    workload: 'echo-call',
    connections: 32,
    variants: [
      variant('raw', 'modern', { key: 'raw', label: 'raw sockets (the driver)', client: 'raw' }),
      variant('raw', 'modern', { key: 'raw/agent', label: 'node:http keep-alive Agent', client: 'agent' }),
    ],
    notes: [
      'The same server under two clients: the one whose driver CPU is lower and throughput higher is the one that does not limit the measurement.',
    ],
  },
];
