// A view that exposes an AppView (our bridge) to the test as `window.probe`.
import { AppView } from '@mcpengine/apps-view';

const view = new AppView(
  { name: 'probe', version: '1.0.0' },
  { capabilities: { availableDisplayModes: ['inline', 'fullscreen'] } },
);
const events: unknown[][] = [];
view.on('toolresult', (result) => events.push(['toolresult', result]));
view.on('hostcontextchanged', (change) => events.push(['hostcontextchanged', change]));
view.onteardown = async () => {
  events.push(['teardown']);
};
(window as unknown as { probe: unknown }).probe = { view, events, AppView };
