/**
 * The official TypeScript SDK 1.x client drives our everything server over stdio in the legacy era: the shared
 * body of `sdk-v1-suite.ts`, one server process per session.
 */
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { everythingStdio, openedStdio } from './sdk-session.js';
import { describeSdkV1Client } from './sdk-v1-suite.js';

describeSdkV1Client({
  name: 'stdio',
  ordered: true,
  open: () => openedStdio(new StdioClientTransport(everythingStdio())),
});
