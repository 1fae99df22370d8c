// What the test pages share: the Node side exposes `window.mcp(method, params)` (a real mcpengine Client session
// with the everything server) and reads `window.hostLog`.
export interface McpTool {
  name: string;
  _meta?: Record<string, unknown> & { ui?: { resourceUri?: string; visibility?: string[] } };
}

declare global {
  interface Window {
    mcp(method: string, params: unknown): Promise<any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON from the server
    hostLog: unknown[];
    hostReady: boolean;
  }
}

export const log = (window.hostLog = []);

/** The tool to run, its arguments, and the view HTML: `?view=` when given, else the tool's ui:// resource. */
export async function setup(): Promise<{
  tool: McpTool;
  tools: McpTool[];
  args: Record<string, unknown>;
  html: string;
}> {
  const params = new URLSearchParams(location.search);
  const { tools } = (await window.mcp('tools/list', {})) as { tools: McpTool[] };
  const tool = tools.find((t) => t.name === params.get('tool'));
  if (!tool) throw new Error(`no tool ${params.get('tool')}`);
  const args = JSON.parse(params.get('args') ?? '{}') as Record<string, unknown>;
  const viewUrl = params.get('view');
  let html: string;
  if (viewUrl) html = await (await fetch(viewUrl)).text();
  else {
    const uri = tool._meta?.ui?.resourceUri ?? (tool._meta?.['ui/resourceUri'] as string);
    const read = await window.mcp('resources/read', { uri });
    log.push({ resource: { uri, mimeType: read.contents[0].mimeType } });
    html = read.contents[0].text;
  }
  return { tool, tools, args, html };
}

export function sandboxedFrame(): HTMLIFrameElement {
  const iframe = document.createElement('iframe');
  iframe.setAttribute('sandbox', 'allow-scripts');
  iframe.style.width = '400px';
  document.body.appendChild(iframe);
  return iframe;
}
