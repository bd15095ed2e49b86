import { Writable } from 'node:stream';
import { createLogger } from '../../src/logging/logger';

function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, cb) {
      lines.push(chunk.toString());
      cb();
    },
  });
  return { lines, logger: createLogger('debug', stream) };
}

describe('log redaction', () => {
  test('key material is censored at the top level, one and two levels down, and in headers', () => {
    const { lines, logger } = capture();
    logger.info({ privateKey: 'SECRET-1', body: { privateKey: 'SECRET-2', userSignature: 'SECRET-3' }, a: { b: { seed: 'SECRET-4' } } }, 'x');
    logger.info({ req: { headers: { 'x-api-key': 'SECRET-5', privatekey: 'SECRET-6' } } }, 'y');
    logger.child({ apiKey: 'SECRET-7' }).info('z');
    const text = lines.join('');
    for (let i = 1; i <= 7; i++) expect(text).not.toContain(`SECRET-${i}`);
    expect(text).toContain('[redacted]');
  });
});
