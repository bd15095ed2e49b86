import type { IdempotencyRecord, IdempotencyScope, IdempotencyStore, StoredResponse } from '../../domain/idempotency.port';
import type { PrismaClient } from '../database';

interface Row {
  fingerprint: string;
  status: number | null;
  headers: unknown;
  body: Uint8Array | null;
}

/**
 * Idempotency records in PostgreSQL. Every instance claims through the same primary key, so only
 * one request of a key ever runs; all times come from the database clock (clock_timestamp()), so
 * instances with skewed clocks agree on expiry and leases.
 */
export class PrismaIdempotencyRepository implements IdempotencyStore {
  constructor(private readonly prisma: PrismaClient) {}

  async claim(s: IdempotencyScope, fingerprint: string, owner: string, ttlSeconds: number, leaseSeconds: number): Promise<boolean> {
    const rows = await this.prisma.$queryRaw<{ owner: string }[]>`
      INSERT INTO idempotency_keys (tenant_id, api_key_id, key, fingerprint, owner, created_at, locked_until, expires_at)
      VALUES (${s.tenantId}, ${s.apiKeyId}, ${s.key}, ${fingerprint}, ${owner}, clock_timestamp(),
              clock_timestamp() + make_interval(secs => ${leaseSeconds}::int), clock_timestamp() + make_interval(secs => ${ttlSeconds}::int))
      ON CONFLICT DO NOTHING
      RETURNING owner`;
    return rows.length === 1;
  }

  async takeOver(s: IdempotencyScope, fingerprint: string, owner: string, ttlSeconds: number, leaseSeconds: number): Promise<boolean> {
    const rows = await this.prisma.$queryRaw<{ owner: string }[]>`
      UPDATE idempotency_keys SET fingerprint = ${fingerprint}, owner = ${owner}, status = NULL, headers = NULL, body = NULL,
        created_at = clock_timestamp(), locked_until = clock_timestamp() + make_interval(secs => ${leaseSeconds}::int),
        expires_at = clock_timestamp() + make_interval(secs => ${ttlSeconds}::int)
      WHERE tenant_id = ${s.tenantId} AND api_key_id = ${s.apiKeyId} AND key = ${s.key}
        AND (expires_at <= clock_timestamp() OR (status IS NULL AND locked_until <= clock_timestamp() AND fingerprint = ${fingerprint}))
      RETURNING owner`;
    return rows.length === 1;
  }

  async find(s: IdempotencyScope): Promise<IdempotencyRecord | undefined> {
    const rows = await this.prisma.$queryRaw<Row[]>`
      SELECT fingerprint, status, headers, body FROM idempotency_keys
      WHERE tenant_id = ${s.tenantId} AND api_key_id = ${s.apiKeyId} AND key = ${s.key} AND expires_at > clock_timestamp()`;
    const row = rows[0];
    if (!row) return undefined;
    if (row.status === null) return { fingerprint: row.fingerprint, response: undefined };
    const headers = (row.headers && typeof row.headers === 'object' ? row.headers : {}) as Record<string, string>;
    return { fingerprint: row.fingerprint, response: { status: Number(row.status), headers, body: Buffer.from(row.body ?? new Uint8Array()) } };
  }

  async complete(s: IdempotencyScope, owner: string, r: StoredResponse): Promise<void> {
    await this.prisma.$executeRaw`
      UPDATE idempotency_keys SET status = ${r.status}::int, headers = ${JSON.stringify(r.headers)}::jsonb, body = ${r.body}, locked_until = NULL
      WHERE tenant_id = ${s.tenantId} AND api_key_id = ${s.apiKeyId} AND key = ${s.key} AND owner = ${owner} AND status IS NULL`;
  }

  async release(s: IdempotencyScope, owner: string): Promise<void> {
    await this.prisma.$executeRaw`
      DELETE FROM idempotency_keys
      WHERE tenant_id = ${s.tenantId} AND api_key_id = ${s.apiKeyId} AND key = ${s.key} AND owner = ${owner} AND status IS NULL`;
  }

  async prune(): Promise<number> {
    return this.prisma.$executeRaw`DELETE FROM idempotency_keys WHERE expires_at <= clock_timestamp()`;
  }
}
