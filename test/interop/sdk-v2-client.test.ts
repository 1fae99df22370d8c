/**
 * The official TypeScript SDK v2 client drives our everything server over stdio in the modern era: the shared
 * body of `sdk-v2-suite.ts`, one server process per session.
 */
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { EVERYTHING_MAIN } from './everything-expected.js';
import { describeSdkV2Client } from './sdk-v2-suite.js';

describeSdkV2Client({
  name: 'stdio',
  ordered: true,
  cancellation: 'notification',
  open: () =>
    Promise.resolve({
      transport: new StdioClientTransport({
        command: process.execPath,
        args: [EVERYTHING_MAIN],
        stderr: 'pipe',
      }),
      // Closing the client ends the process.
      stop: () => Promise.resolve(),
    }),
});
