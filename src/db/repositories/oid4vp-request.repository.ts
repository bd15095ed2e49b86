import type { JsonWebKey } from 'node:crypto';
import type { Prisma } from '../../generated/prisma/client';
import type { NewRequest, PresentationResult, RequestRecord, RequestRepository, WebhookStatus } from '../../oid4vc/verifier/request-record';
import type { PrismaClient } from '../database';

interface Row {
  id: string;
  tenantId: string;
  state: string;
  nonce: string;
  clientId: string;
  clientIdPrefix: string;
  responseMode: string;
  dcqlQuery: unknown;
  encryptionJwk: unknown;
  webhookUrl: string | null;
  webhookStatus: string | null;
  webhookAttempts: number;
  status: string;
  result: unknown;
  expiresAt: Date;
  respondedAt: Date | null;
  createdAt: Date;
}

const toRecord = (r: Row): RequestRecord => ({
  id: r.id,
  tenantId: r.tenantId,
  state: r.state,
  nonce: r.nonce,
  clientId: r.clientId,
  clientIdPrefix: r.clientIdPrefix as RequestRecord['clientIdPrefix'],
  responseMode: r.responseMode as RequestRecord['responseMode'],
  dcqlQuery: r.dcqlQuery as Record<string, unknown>,
  encryptionJwk: (r.encryptionJwk ?? null) as JsonWebKey | null,
  webhookUrl: r.webhookUrl,
  webhookStatus: r.webhookStatus as RequestRecord['webhookStatus'],
  webhookAttempts: r.webhookAttempts,
  status: r.status as RequestRecord['status'],
  result: (r.result ?? null) as PresentationResult | null,
  expiresAt: r.expiresAt,
  respondedAt: r.respondedAt,
  createdAt: r.createdAt,
});

const json = (v: unknown): Prisma.InputJsonValue => v as Prisma.InputJsonValue;

/** OID4VP presentation requests (oid4vp_requests) and their sealed secrets (oid4vp_request_secrets). */
export class PrismaOid4vpRequestRepository implements RequestRepository {
  constructor(private readonly prisma: PrismaClient) {}

  async create(request: NewRequest, sealedSecrets: Uint8Array): Promise<RequestRecord> {
    const row = await this.prisma.oid4vpRequest.create({
      data: {
        id: request.id,
        tenantId: request.tenantId,
        state: request.state,
        nonce: request.nonce,
        clientId: request.clientId,
        clientIdPrefix: request.clientIdPrefix,
        responseMode: request.responseMode,
        dcqlQuery: json(request.dcqlQuery),
        ...(request.encryptionJwk ? { encryptionJwk: json(request.encryptionJwk) } : {}),
        webhookUrl: request.webhookUrl,
        webhookStatus: request.webhookStatus,
        expiresAt: request.expiresAt,
        secrets: { create: { sealed: Buffer.from(sealedSecrets) } },
      },
    });
    return toRecord(row);
  }

  async find(id: string): Promise<RequestRecord | null> {
    const row = await this.prisma.oid4vpRequest.findUnique({ where: { id } });
    return row ? toRecord(row) : null;
  }

  async findForTenant(tenantId: string, id: string): Promise<RequestRecord | null> {
    const row = await this.prisma.oid4vpRequest.findFirst({ where: { id, tenantId } });
    return row ? toRecord(row) : null;
  }

  async sealedSecrets(id: string): Promise<Uint8Array | null> {
    const row = await this.prisma.oid4vpRequestSecrets.findUnique({ where: { requestId: id } });
    return row ? new Uint8Array(row.sealed) : null;
  }

  async complete(id: string, result: PresentationResult, now: Date): Promise<boolean> {
    // One conditional UPDATE: of two concurrent responses exactly one sees respondedAt null.
    const { count } = await this.prisma.oid4vpRequest.updateMany({
      where: { id, respondedAt: null, expiresAt: { gt: now } },
      data: { respondedAt: now, status: result.verified ? 'verified' : 'failed', result: json(result) },
    });
    return count === 1;
  }

  async recordWebhook(id: string, status: WebhookStatus, attempts: number): Promise<void> {
    await this.prisma.oid4vpRequest.update({ where: { id }, data: { webhookStatus: status, webhookAttempts: attempts } });
  }
}
