/**
 * The official TypeScript SDK 1.x client drives our everything server over stdio in the legacy era: the shared
 * body of `sdk-v1-suite.ts`, one server process per session.
 */
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { EVERYTHING_MAIN } from './everything-expected.js';
import { describeSdkV1Client } from './sdk-v1-suite.js';

describeSdkV1Client({
  name: 'stdio',
  ordered: true,
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
