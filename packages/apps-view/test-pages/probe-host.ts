// A scripted host for the bridge's own rules: records what the view sends, answers requests from `window.answers`,
// sends what the test asks, and can make a sibling frame post to the view.
declare global {
  interface Window {
    answers: Record<string, { result?: unknown; error?: unknown }>;
    received: { id?: unknown; method?: string; params?: unknown; result?: unknown; error?: unknown }[];
    send(message: unknown): void;
    intrude(message: unknown): Promise<void>;
    hostReady: boolean;
  }
}

window.answers = {};
window.received = [];
const iframe = document.createElement('iframe');
iframe.name = 'view';
iframe.setAttribute('sandbox', 'allow-scripts');
document.body.appendChild(iframe);
const view = iframe.contentWindow!;
let intruded: (() => void) | undefined;
window.addEventListener('message', (event) => {
  if (event.data === 'intruded') return intruded?.();
  if (event.source !== view) return;
  const message = event.data as Window['received'][number];
  window.received.push(message);
  if (message.method !== undefined && message.id !== undefined) {
    const answer = window.answers[message.method];
    if (answer) view.postMessage({ jsonrpc: '2.0', id: message.id, ...answer }, '*');
  }
});
window.send = (message) => view.postMessage(message, '*');
window.intrude = (message) =>
  new Promise<void>((resolve) => {
    intruded = resolve;
    const sibling = document.createElement('iframe');
    sibling.setAttribute('sandbox', 'allow-scripts');
    sibling.srcdoc =
      `<script>parent.frames[0].postMessage(${JSON.stringify(message).replace(/</g, '\\u003c')}, '*');` +
      `parent.postMessage('intruded', '*');</script>`;
    document.body.appendChild(sibling);
  });
iframe.srcdoc = await (await fetch('/view/probe.html')).text();
window.hostReady = true;
