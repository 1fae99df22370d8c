// A host built on the OFFICIAL SDK's AppBridge (@modelcontextprotocol/ext-apps/app-bridge), rendering a view in a
// sandboxed iframe; tool calls go to the everything server through window.mcp.
import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';
import { log, sandboxedFrame, setup } from './shared.js';

const { tool, args, html } = await setup();
const iframe = sandboxedFrame();
const bridge = new AppBridge(
  null,
  { name: 'official-host', version: '1.0.0' },
  { serverTools: {}, openLinks: {}, updateModelContext: { text: {} }, message: { text: {} } },
  {
    hostContext: {
      theme: 'dark',
      styles: { variables: { '--color-text-primary': 'rgb(1, 2, 3)' } as never },
      displayMode: 'inline',
      availableDisplayModes: ['inline', 'fullscreen'],
      toolInfo: { tool: tool as never },
    },
  },
);
bridge.oncalltool = async (params) => {
  log.push({ calltool: params });
  return window.mcp('tools/call', params);
};
bridge.onsizechange = (params) => log.push({ size: params });
bridge.onupdatemodelcontext = async (params) => {
  log.push({ context: params });
  return {};
};
bridge.onrequestdisplaymode = async ({ mode }) => {
  log.push({ displayMode: mode });
  return { mode };
};
bridge.oninitialized = () => {
  log.push({ initialized: bridge.getAppVersion() });
  void (async () => {
    await bridge.sendToolInput({ arguments: args });
    const result = await window.mcp('tools/call', { name: tool.name, arguments: args });
    await bridge.sendToolResult(result);
    log.push({ sentResult: true });
  })();
};
(window as unknown as { teardown: () => Promise<unknown> }).teardown = async () => {
  const answer = await bridge.teardownResource({});
  log.push({ teardown: answer });
  return answer;
};
await bridge.connect(new PostMessageTransport(iframe.contentWindow!, iframe.contentWindow!));
iframe.srcdoc = html;
window.hostReady = true;
