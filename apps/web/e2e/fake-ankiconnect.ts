/**
 * A local stand-in for AnkiConnect (the Anki add-on's HTTP API, version 6) on 127.0.0.1: it answers
 * `{action, version, params}` with `{result, error}`, and decides CORS as the add-on does — an origin in
 * `webCorsOriginList` is answered with it in `Access-Control-Allow-Origin`; while the list holds
 * "http://localhost", so are http://127.0.0.1:* origins; any other origin gets 403 (and no usable CORS
 * header, so the browser refuses to read it), except for `requestPermission`, which answers
 * `{permission: "denied"}`. Duplicates are judged on a note's first field within its deck.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeNote {
  deckName: string;
  modelName: string;
  fields: Record<string, string>;
  tags: string[];
}

export interface FakeAnki {
  url: string;
  /** AnkiConnect's webCorsOriginList setting. */
  origins: string[];
  decks: string[];
  /** Note types and their fields; null: a note type Anki lists but cannot open (an error answer). */
  models: Record<string, string[] | null>;
  notes: FakeNote[];
  /** Every request: its origin, action and whether the origin was allowed. */
  requests: { origin: string | undefined; action: string; allowed: boolean }[];
  close(): Promise<void>;
}

export async function startFakeAnki(): Promise<FakeAnki> {
  const anki: Omit<FakeAnki, 'url' | 'close'> = {
    origins: ['http://localhost'],
    decks: ['Default', 'Yidu'],
    models: {
      Basic: ['Front', 'Back'],
      'Yidu Vocabulary': ['Word', 'Meaning', 'Reading', 'Sentence', 'Translation', 'Book'],
      Broken: null,
    },
    notes: [],
    requests: [],
  };
  const isDuplicate = (note: FakeNote) => {
    const first = anki.models[note.modelName]?.[0];
    if (!first || !note.fields[first]) return true; // an empty first field cannot be added either
    return anki.notes.some(
      (n) => n.deckName === note.deckName && n.modelName === note.modelName && n.fields[first] === note.fields[first],
    );
  };
  const check = (note: FakeNote): string | null => {
    if (!anki.decks.includes(note.deckName)) return `deck was not found: ${note.deckName}`;
    if (!anki.models[note.modelName]) return `model was not found: ${note.modelName}`;
    if (isDuplicate(note)) return 'cannot create note because it is a duplicate';
    return null;
  };
  const handle = (action: string, params: Record<string, unknown>): unknown => {
    switch (action) {
      case 'version':
        return 6;
      case 'requestPermission':
        return { permission: 'granted', requireApiKey: false, version: 6 };
      case 'deckNames':
        return anki.decks;
      case 'modelNames':
        return Object.keys(anki.models);
      case 'modelFieldNames': {
        const fields = anki.models[String(params.modelName)];
        if (!fields) throw new Error(`model was not found: ${String(params.modelName)}`);
        return fields;
      }
      case 'canAddNotes':
        return (params.notes as FakeNote[]).map((n) => check(n) === null);
      case 'canAddNotesWithErrorDetail':
        return (params.notes as FakeNote[]).map((n) => {
          const error = check(n);
          return error === null ? { canAdd: true } : { canAdd: false, error };
        });
      case 'addNotes':
        return (params.notes as FakeNote[]).map((n) => {
          if (check(n) !== null) return null;
          anki.notes.push(n);
          return 1_700_000_000_000 + anki.notes.length;
        });
      default:
        throw new Error('unsupported action');
    }
  };

  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      const origin = request.headers.origin;
      let allowed = false;
      let corsOrigin = 'http://localhost';
      if (anki.origins.includes('*')) {
        allowed = true;
        corsOrigin = '*';
      } else if (origin === undefined) allowed = true;
      else if (
        anki.origins.includes(origin) ||
        (anki.origins.includes('http://localhost') && origin.startsWith('http://127.0.0.1:'))
      ) {
        allowed = true;
        corsOrigin = origin;
      }
      const headers = {
        'Content-Type': 'application/json',
        'Access-Control-Allow-Origin': corsOrigin,
        'Access-Control-Allow-Headers': '*',
      };
      if (request.method === 'OPTIONS') {
        response.writeHead(200, headers);
        return response.end();
      }
      let body: { action?: string; version?: number; params?: Record<string, unknown> } = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as typeof body;
      } catch {
        body = {};
      }
      const action = body.action ?? '';
      anki.requests.push({ origin, action, allowed });
      if (!allowed && action !== 'requestPermission') {
        response.writeHead(403, { 'Access-Control-Allow-Origin': corsOrigin, 'Access-Control-Allow-Headers': '*' });
        return response.end();
      }
      if (!allowed) {
        response.writeHead(200, { ...headers, 'Access-Control-Allow-Origin': origin ?? '' });
        return response.end(JSON.stringify({ result: { permission: 'denied' }, error: null }));
      }
      let reply: { result: unknown; error: string | null };
      try {
        reply = { result: handle(action, body.params ?? {}), error: null };
      } catch (error) {
        reply = { result: null, error: (error as Error).message };
      }
      response.writeHead(200, headers);
      response.end(JSON.stringify(reply));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(anki, {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
