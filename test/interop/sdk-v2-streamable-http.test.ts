/**
 * The official TypeScript SDK v2 client drives our everything server over Streamable HTTP in the modern era
 * (2026-07-28): the shared body of `sdk-v2-suite.ts` (one server process per session), then what only HTTP has —
 * stateless requests with the modern headers, JSON or SSE answers, and modern errors as HTTP statuses.
 */
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { HttpLog, startEverythingHttp } from './everything-http.js';
import {
  connectSdkV2,
  describeSdkV2Client,
  finishSdkV2,
  type SdkV2TransportProfile,
} from './sdk-v2-suite.js';

const profile: SdkV2TransportProfile = {
  name: 'Streamable HTTP',
  ordered: false,
  cancellation: 'close-stream',
  open: async () => {
    const server = await startEverythingHttp();
    const http = new HttpLog();
    return {
      transport: new StreamableHTTPClientTransport(server.mcpUrl, { fetch: http.fetch }),
      http,
      stop: () => server.stop(),
    };
  },
};

describeSdkV2Client(profile);
