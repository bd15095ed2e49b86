import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { Witness } from './witness';

/** A request body larger than this is refused: 63 proof lines and a checkpoint with 100 signatures fit easily. */
export const MAX_ADD_CHECKPOINT_BYTES = 64 * 1024;

function send(res: ServerResponse, status: number, body: string, contentType = 'text/plain; charset=utf-8'): void {
  res.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

async function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  // An oversized body is read to its end (and dropped) so the client gets the 413, not a reset.
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size <= MAX_ADD_CHECKPOINT_BYTES) chunks.push(chunk as Buffer);
  }
  return size > MAX_ADD_CHECKPOINT_BYTES ? undefined : Buffer.concat(chunks);
}

/**
 * The witness's HTTP face (c2sp.org/tlog-witness): `POST /add-checkpoint` only. Plain node:http,
 * not the service's express app: a witness has no API keys, database or GraphQL, and a small
 * surface is what an independent party wants to run.
 */
export function createWitnessServer(witness: Witness): Server {
  return createServer((req, res) => {
    if (req.url !== '/add-checkpoint') return send(res, 404, 'not found\n');
    if (req.method !== 'POST') {
      res.setHeader('allow', 'POST');
      return send(res, 405, 'method not allowed\n');
    }
    readBody(req).then(
      async (bytes) => {
        if (bytes === undefined) return send(res, 413, 'request body too large\n');
        let text: string;
        try {
          // Invalid UTF-8 is refused, not replaced: a replaced character would change the signed text.
          text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
        } catch {
          return send(res, 400, 'the body must be UTF-8 text\n');
        }
        const a = await witness.addCheckpoint(text);
        send(res, a.status, a.body, a.contentType);
      },
      () => send(res, 400, 'could not read the request body\n'),
    ).catch(() => {
      // Persisting the state failed (disk full, say): nothing was cosigned; no detail leaks.
      if (!res.headersSent) send(res, 500, 'internal error\n');
    });
  });
}
