/**
 * Judges that read everything the server sent during the revision's probes.
 */
import { clip } from '../evidence.js';
import { isObject, type JsonObject } from '@mcpengine/wire';
import type { Probe } from './probe.js';
import { defineCheck } from './registry.js';

export const RESPONSE_IDS = defineCheck(
  'jsonrpc.response-ids',
  'jsonrpc',
  'Every response carries the id of a request the validator sent (null only when the id could not be read)',
  { facets: ['result', 'error'] },
);

export const responseIdsProbe: Probe = {
  name: 'response ids',
  eras: ['legacy', 'modern'],
  checks: [RESPONSE_IDS],
  run(ctx) {
    let responses = 0;
    const strays: string[] = [];
    const facets = new Set<string>();
    for (const channel of ctx.state.channels) {
      for (const received of channel.received) {
        const message = received.message;
        if (!isObject(message) || 'method' in message || !('result' in message || 'error' in message))
          continue;
        responses++;
        // On HTTP an error status may carry an error without an id (the spec allows it there).
        if (!('id' in message) && channel.kind !== 'stdio') continue;
        const id = (message as JsonObject)['id'];
        if (id === null) continue; // judged by the schema check: only -32700 and -32600 may carry it
        if (!channel.sentIds.has(id)) {
          strays.push(clip(received.text, 300));
          facets.add('error' in message ? 'error' : 'result');
        }
      }
    }
    if (responses === 0) ctx.notRun(RESPONSE_IDS, 'no response was received');
    else {
      ctx.expect(
        RESPONSE_IDS,
        strays.length === 0,
        `${responses} response(s), each answering a request that was sent`,
        `${strays.length} response(s) with an id no request carried`,
        strays.length === 0
          ? []
          : [{ label: 'responses with unknown ids', received: strays.slice(0, 3).join('\n') }],
        [...facets],
      );
    }
    return Promise.resolve();
  },
};
