// Hostile: answers initialize, then exits in the middle of the next request (half a line written).
process.stdin.setEncoding('utf8');
let buffer = '';
process.stdin.on('data', (chunk) => {
  buffer += chunk;
  let index;
  while ((index = buffer.indexOf('\n')) !== -1) {
    const line = buffer.slice(0, index);
    buffer = buffer.slice(index + 1);
    let message;
    try {
      message = JSON.parse(line);
    } catch {
      continue;
    }
    if (message.method === 'initialize') {
      const result = {
        protocolVersion: message.params?.protocolVersion ?? '2025-11-25',
        capabilities: { tools: {} },
        serverInfo: { name: 'dies', version: '1' },
      };
      process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id: message.id, result })}\n`);
    } else if ('id' in message) {
      process.stdout.write('{"jsonrpc":"2.0","id":', () => process.exit(1));
      return;
    }
  }
});
process.stdin.on('end', () => process.exit(0));
