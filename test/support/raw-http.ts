import { connect } from 'node:net';

export interface RawResponse {
  /** The status code, or undefined when no response head arrived. */
  readonly status: number | undefined;
  readonly head: string;
  /** Whether the server closed the connection before `waitMs` ran out. */
  readonly closed: boolean;
  readonly ms: number;
}

/**
 * Sends a request head and only part of its body over a raw socket, then waits: what a client
 * that is slow, stalled or hostile does. Resolves with the response head (if any arrives within
 * `waitMs`) without ever sending the rest of the body.
 */
export function partialRequest(baseUrl: string, head: string, bodyPart: string | Buffer, waitMs: number, untilClosed = false): Promise<RawResponse> {
  const url = new URL(baseUrl);
  const started = Date.now();
  return new Promise((resolve) => {
    const socket = connect(Number(url.port), url.hostname);
    let data = '';
    let done = false;
    const finish = (closed: boolean): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      const headEnd = data.indexOf('\r\n\r\n');
      const headText = headEnd >= 0 ? data.slice(0, headEnd) : '';
      const m = /^HTTP\/1\.1 (\d{3})/.exec(headText);
      resolve({ status: m ? Number(m[1]) : undefined, head: headText, closed, ms: Date.now() - started });
    };
    const timer = setTimeout(() => finish(false), waitMs);
    socket.on('data', (d: Buffer) => {
      data += d.toString('latin1');
      if (!untilClosed && data.includes('\r\n\r\n')) finish(false);
    });
    socket.on('close', () => finish(true));
    socket.on('error', () => finish(true));
    socket.write(head.replace(/\n/g, '\r\n') + '\r\n');
    if (bodyPart.length > 0) socket.write(bodyPart);
  });
}

/** A request head; `\n` line ends become CRLF. */
export function requestHead(method: string, path: string, headers: Record<string, string | number>): string {
  return `${method} ${path} HTTP/1.1\nHost: localhost\n${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}`)
    .join('\n')}\n`;
}
