/** The page's link to its backend: the token from the URL fragment, JSON calls, the event stream. */
import { useEffect } from 'preact/hooks';

export type Json = Record<string, unknown>;

export const token = new URLSearchParams(location.hash.slice(1)).get('token') ?? '';

export async function api(path: string, body?: unknown): Promise<Json> {
  const response = await fetch(`/api/${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const parsed = (await response.json()) as Json;
  if (!response.ok) throw new Error(String(parsed['error'] ?? response.statusText));
  return parsed;
}

export interface Ask {
  id: number;
  kind: 'sampling' | 'elicitation';
  params: Json;
}

export interface Entry {
  seq: number;
  atMs: number;
  kind: string;
  from?: string;
  method?: string;
  inReplyTo?: string;
  message?: unknown;
  violations?: string[];
  text?: string;
  status?: number;
  url?: string;
  /** The SSE event id a message arrived with (HTTP), or the last one of an HTTP exchange. */
  eventId?: string;
}

/** Follows the backend's NDJSON event stream (fetch, so that the token travels in a header). */
export function useEvents(onEvent: (event: Json) => void): void {
  useEffect(() => {
    const abort = new AbortController();
    void (async () => {
      const response = await fetch('/api/events', {
        headers: { authorization: `Bearer ${token}` },
        signal: abort.signal,
      });
      const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        buffer += value;
        let newline: number;
        while ((newline = buffer.indexOf('\n')) >= 0) {
          const line = buffer.slice(0, newline);
          buffer = buffer.slice(newline + 1);
          if (line.trim() !== '') onEvent(JSON.parse(line) as Json);
        }
      }
    })().catch(() => {});
    return () => abort.abort();
  }, []);
}
