// Breaks: test://readme is listed but cannot be read.
// caught-by: yaml mcp-jest generate
import { main } from './_server.mjs';
main({ readResource: (uri) => ({ error: { code: -32002, message: 'Resource not found', data: { uri } } }) });
