/**
 * The official TypeScript SDK v2 client drives our everything server over stdio in the modern era: the shared
 * body of `sdk-v2-suite.ts`, one server process per session.
 */
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { everythingStdio, openedStdio } from './sdk-session.js';
import { describeSdkV2Client } from './sdk-v2-suite.js';

describeSdkV2Client({
  name: 'stdio',
  ordered: true,
  cancellation: 'notification',
  open: () => openedStdio(new StdioClientTransport(everythingStdio())),
});
