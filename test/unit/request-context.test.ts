import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import express from 'express';
import { createLogger } from '../../src/logging/logger';
import { requestContext } from '../../src/rest/middleware/request-context';
import type { RestLocals } from '../../src/rest/context';

/** An app whose one route logs a warning through the request's logger; returns the lines written. */
async function run(level: 'info' | 'warn', path: string): Promise<Record<string, unknown>[]> {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({ write: (chunk: Buffer, _e, done) => { lines.push(JSON.parse(chunk.toString())); done(); } });
  const app = express();
  app.use(requestContext(createLogger(level, sink)));
  app.get('/warns', (_q, res) => {
    (res.locals as RestLocals).log.warn('careful');
    res.send('ok');
  });
  app.get('/quiet', (_q, res) => void res.send('ok'));
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  try {
    const r = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`, { headers: { 'x-request-id': 'req-1' } });
    expect(r.headers.get('x-request-id')).toBe('req-1');
    await r.text();
    await new Promise((r) => setTimeout(r, 20));
  } finally {
    server.close();
  }
  return lines;
}

test('the request logger carries the request id, and the access line is written at info', async () => {
  const lines = await run('info', '/warns');
  expect(lines.map((l) => [l['msg'], l['requestId']])).toEqual([['careful', 'req-1'], ['request', 'req-1']]);
  expect(lines[1]).toMatchObject({ method: 'GET', path: '/warns', status: 200 });
});

test('above info: no access line, and the lazily made request logger still carries the id', async () => {
  expect(await run('warn', '/quiet')).toEqual([]);
  const lines = await run('warn', '/warns');
  expect(lines.map((l) => [l['msg'], l['requestId']])).toEqual([['careful', 'req-1']]);
});
