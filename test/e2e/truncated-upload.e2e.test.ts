import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { request } from '../support/http';
import { type RunningService, startService } from '../support/process';

const ADMIN = `admin-${randomBytes(12).toString('hex')}`;
const BOUNDARY = 'b0undary';

describe('a truncated photo upload (compiled service)', () => {
  let dataDir: string;
  let svc: RunningService;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'credgate-trunc-'));
    svc = await startService({ CREDGATE_DATA_DIR: dataDir, CREDGATE_ADMIN_API_KEY: ADMIN });
  }, 60_000);

  afterAll(async () => {
    if (svc.proc.exitCode === null) await svc.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('is a 4xx for the client and does not take the process down', async () => {
    const raw = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="originalPhoto"; filename="a.jpg"\r\nContent-Type: image/jpeg\r\n\r\n` + 'x'.repeat(2048);
    for (const p of ['/user/image/createTemplate', '/api/user/createTemplate']) {
      const r = await request(svc.url, 'POST', p, { headers: { 'x-api-key': ADMIN, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` }, raw });
      expect({ p, status: r.status, code: r.json?.code }).toEqual({ p, status: 400, code: 'INVALID_INPUT' });
    }
    await new Promise((r) => setTimeout(r, 300));
    expect(svc.proc.exitCode).toBeNull();
    expect((await request(svc.url, 'GET', '/healthz')).status).toBe(200);
    expect(svc.stderr.join('\n')).not.toMatch(/Unexpected end of form/);
  }, 30_000);
});
