// A view built with the OFFICIAL SDK's App class (@modelcontextprotocol/ext-apps).
import { App, PostMessageTransport } from '@modelcontextprotocol/ext-apps';

const out = (id: string, text: string) => {
  document.getElementById(id)!.textContent = text;
};
const app = new App({ name: 'official-view', version: '1.0.0' }, {});
app.ontoolinput = (params) => out('input', JSON.stringify(params.arguments));
app.ontoolresult = (result) => out('result', JSON.stringify(result.structuredContent));
document.getElementById('call')!.addEventListener('click', () => {
  const name = (document.getElementById('tool') as HTMLInputElement).value;
  app
    .callServerTool({ name, arguments: { values: [1, 2], value: 3 } })
    .then((result) => out('called', JSON.stringify(result.structuredContent)))
    .catch((error: Error) => out('called', `refused: ${error.message}`));
});
await app.connect(new PostMessageTransport(window.parent, window.parent));
out('status', 'connected');
