/** Transport handlers that record what a transport delivers, for the transport tests. */
import type { InboundProblem, TransportHandlers } from '../transports/transport.js';

export interface Recorder extends TransportHandlers {
  readonly messages: string[];
  readonly problems: InboundProblem[];
  readonly closes: (Error | undefined)[];
}

export function recorder(): Recorder {
  const messages: string[] = [];
  const problems: InboundProblem[] = [];
  const closes: (Error | undefined)[] = [];
  return {
    messages,
    problems,
    closes,
    message: (text) => messages.push(text),
    invalid: (problem) => problems.push(problem),
    close: (error) => closes.push(error),
  };
}
