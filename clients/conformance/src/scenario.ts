/**
 * What a conformance scenario gets: the suite's parameters and a way to connect a client with the right lifecycle.
 */
import type { ClientHandlers, ClientSession } from 'mcpengine/client';
import type { HttpClientTransport } from 'mcpengine/http';
import type { JsonObject, Revision } from 'mcpengine/protocol';

export interface ScenarioRun {
  readonly scenario: string;
  readonly url: string;
  readonly version: Revision;
  readonly context: JsonObject;
  /** Opens a session of a fresh client with the lifecycle of `version`. */
  connect(options?: ConnectScenarioOptions): Promise<Connected>;
}

export interface ConnectScenarioOptions {
  handlers?: ClientHandlers;
  /** Legacy era: open the standalone GET stream (default true). */
  standaloneStream?: boolean;
}

export interface Connected {
  readonly client: ClientSession;
  readonly transport: HttpClientTransport;
}

export type ScenarioHandler = (run: ScenarioRun) => Promise<void>;
