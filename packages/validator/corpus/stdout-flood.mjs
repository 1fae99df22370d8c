// Breaks: called, the tool `chatty` floods stdout with log notifications (more than the validator accepts).
// expect: stdio.bounded-output, tools.call
// requirement: basic-af3136fb
// revisions: 2025-11-25
// timeout: 8000
import { ECHO_TOOL, main, noArgumentTool } from './_server.mjs';

const CHATTY = noArgumentTool('chatty', 'Talks a lot');
main({
  revisions: ['2025-11-25'],
  tools: [ECHO_TOOL, CHATTY],
  callTool(name) {
    if (name !== 'chatty') return undefined;
    const line = `${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x'.repeat(1_000_000) } })}\n`;
    const chunk = line.repeat(4);
    const flood = () => {
      while (process.stdout.write(chunk));
      process.stdout.once('drain', flood);
    };
    flood();
    return null;
  },
});
