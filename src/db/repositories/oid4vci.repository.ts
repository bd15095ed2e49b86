import type { JsonWebKey } from 'node:crypto';
import type {
  AuthorizationRecord,
  CredentialRef,
  IssuanceRecord,
  IssuedCredentialRecord,
  NewOffer,
  NewToken,
  NotificationEvent,
  OfferRecord,
  OfferStatus,
  Oid4vciStore,
  SubjectClaims,
  TokenRecord,
} from '../../oid4vc/issuer/ports';
import type { Prisma, PrismaClient } from '../database';
import { isUniqueViolation } from '../prisma-errors';

interface OfferRow {
  id: string;
  tenantId: string;
  configurationIds: string[];
  claims: unknown;
  status: string;
  preAuthorizedCodeHash: string | null;
  txCodeHash: string | null;
  txCodeLength: number | null;
  txCodeFailures: number;
  lockedAt: Date | null;
  issuerStateHash: string | null;
  deferred: boolean;
  readyAt: Date | null;
  revokedAt: Date | null;
  expiresAt: Date;
  createdAt: Date;
  updatedAt: Date;
}

const offerOf = (r: OfferRow): OfferRecord => ({ ...r, claims: r.claims as SubjectClaims, status: r.status as OfferStatus });

interface IssuanceRow {
  notificationId: string;
  tenantId: string;
  offerId: string;
  configurationId: string;
  format: string;
  holderKeys: unknown;
  credentialRefs: unknown;
  issuedAt: Date | null;
  event: string | null;
}

const issuanceOf = (r: IssuanceRow): IssuanceRecord => ({
  notificationId: r.notificationId,
  tenantId: r.tenantId,
  offerId: r.offerId,
  configurationId: r.configurationId,
  format: r.format,
  holderKeys: r.holderKeys as JsonWebKey[],
  credentialRefs: r.credentialRefs as CredentialRef[],
  issuedAt: r.issuedAt,
  event: r.event,
});

const json = (v: unknown): Prisma.InputJsonValue => v as Prisma.InputJsonValue;

/** The rows of the credentials a delivery names by record id (`credentialId` of its references). */
function issuedRows(input: { notificationId: string; tenantId: string; offerId: string; configurationId: string; format: string }, refs: readonly CredentialRef[], at: Date) {
  return refs.flatMap((ref) =>
    typeof ref['credentialId'] === 'string'
      ? [{ id: ref['credentialId'], tenantId: input.tenantId, offerId: input.offerId, notificationId: input.notificationId, configurationId: input.configurationId, format: input.format, issuedAt: at }]
      : [],
  );
}

const issuedOf = (r: { id: string; tenantId: string; offerId: string; configurationId: string; format: string; issuedAt: Date; revokedAt: Date | null }): IssuedCredentialRecord => ({
  id: r.id,
  tenantId: r.tenantId,
  offerId: r.offerId,
  configurationId: r.configurationId,
  format: r.format,
  issuedAt: r.issuedAt,
  revokedAt: r.revokedAt,
});

/** Offers, codes, tokens, nonces and issuances of the OpenID4VCI issuer. Single use is enforced by conditional updates. */
export class PrismaOid4vciRepository implements Oid4vciStore {
  constructor(private readonly prisma: PrismaClient) {}

  async createOffer(o: NewOffer): Promise<OfferRecord> {
    const row = await this.prisma.oid4vciOffer.create({ data: { ...o, configurationIds: [...o.configurationIds], claims: json(o.claims) } });
    return offerOf(row);
  }

  async findOffer(tenantId: string, id: string): Promise<OfferRecord | null> {
    const row = await this.prisma.oid4vciOffer.findFirst({ where: { id, tenantId } });
    return row ? offerOf(row) : null;
  }

  async listOffers(tenantId: string, page: { first: number; after?: string }): Promise<{ items: OfferRecord[]; hasMore: boolean }> {
    const rows = await this.prisma.oid4vciOffer.findMany({
      where: { tenantId },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: page.first + 1,
      ...(page.after ? { cursor: { id: page.after }, skip: 1 } : {}),
    });
    return { items: rows.slice(0, page.first).map(offerOf), hasMore: rows.length > page.first };
  }

  async findOfferByPreAuthorizedCode(codeHash: string): Promise<OfferRecord | null> {
    const row = await this.prisma.oid4vciOffer.findUnique({ where: { preAuthorizedCodeHash: codeHash } });
    return row ? offerOf(row) : null;
  }

  async findOfferByIssuerState(stateHash: string): Promise<OfferRecord | null> {
    const row = await this.prisma.oid4vciOffer.findUnique({ where: { issuerStateHash: stateHash } });
    return row ? offerOf(row) : null;
  }

  async revokeOffer(tenantId: string, id: string, at: Date): Promise<OfferRecord | null> {
    // Revocation also spends every grant: codes and issuer state can no longer be exchanged.
    const n = await this.prisma.$transaction(async (tx) => {
      const revoked = await tx.oid4vciOffer.updateMany({
        where: { id, tenantId, revokedAt: null },
        data: { revokedAt: at, status: 'revoked', preAuthorizedCodeHash: null, issuerStateHash: null, updatedAt: at },
      });
      // What the offer produced is withdrawn with it; a credential revoked on its own keeps its time.
      if (revoked.count > 0) await tx.oid4vciIssuedCredential.updateMany({ where: { offerId: id, tenantId, revokedAt: null }, data: { revokedAt: at } });
      return revoked;
    });
    if (n.count === 0) return null;
    await this.prisma.oid4vciToken.deleteMany({ where: { offerId: id } });
    return this.findOffer(tenantId, id);
  }

  async markReady(tenantId: string, id: string, at: Date): Promise<OfferRecord | null> {
    await this.prisma.oid4vciOffer.updateMany({ where: { id, tenantId, readyAt: null }, data: { readyAt: at, updatedAt: at } });
    return this.findOffer(tenantId, id);
  }

  async recordTxCodeFailure(offerId: string, max: number, at: Date): Promise<{ failures: number; locked: boolean }> {
    return this.prisma.$transaction(async (tx) => {
      const row = await tx.oid4vciOffer.update({ where: { id: offerId }, data: { txCodeFailures: { increment: 1 }, updatedAt: at } });
      if (row.txCodeFailures >= max && row.lockedAt === null) {
        // Locked for good: the code is spent so that even the right tx_code no longer works.
        await tx.oid4vciOffer.update({ where: { id: offerId }, data: { lockedAt: at, status: 'failed', preAuthorizedCodeHash: null } });
        return { failures: row.txCodeFailures, locked: true };
      }
      return { failures: row.txCodeFailures, locked: row.lockedAt !== null };
    });
  }

  async exchangePreAuthorizedCode(offerId: string, codeHash: string, token: NewToken): Promise<boolean> {
    return this.prisma.$transaction(async (tx) => {
      const spent = await tx.oid4vciOffer.updateMany({
        where: { id: offerId, preAuthorizedCodeHash: codeHash, lockedAt: null, revokedAt: null },
        data: { preAuthorizedCodeHash: null, status: 'token-issued', updatedAt: new Date() },
      });
      if (spent.count === 0) return false;
      await tx.oid4vciToken.create({ data: { ...token } });
      return true;
    });
  }

  async createAuthorization(input: Omit<AuthorizationRecord, 'codeHash' | 'usedAt' | 'subject'> & { requestUriHash: string }): Promise<void> {
    await this.prisma.oid4vciAuthorization.create({ data: { ...input } });
  }

  async findAuthorizationByRequestUri(requestUriHash: string): Promise<AuthorizationRecord | null> {
    return this.prisma.oid4vciAuthorization.findUnique({ where: { requestUriHash } });
  }

  async issueAuthorizationCode(id: string, codeHash: string, subject: string, expiresAt: Date): Promise<boolean> {
    const n = await this.prisma.oid4vciAuthorization.updateMany({ where: { id, codeHash: null, usedAt: null }, data: { codeHash, subject, expiresAt } });
    return n.count === 1;
  }

  async findAuthorizationByCode(codeHash: string): Promise<AuthorizationRecord | null> {
    return this.prisma.oid4vciAuthorization.findUnique({ where: { codeHash } });
  }

  async exchangeAuthorizationCode(id: string, token: NewToken, at: Date): Promise<boolean> {
    return this.prisma.$transaction(async (tx) => {
      const spent = await tx.oid4vciAuthorization.updateMany({ where: { id, usedAt: null }, data: { usedAt: at } });
      if (spent.count === 0) return false;
      const offer = await tx.oid4vciOffer.updateMany({ where: { id: token.offerId, revokedAt: null, lockedAt: null }, data: { status: 'token-issued', issuerStateHash: null, updatedAt: at } });
      if (offer.count === 0) return false;
      await tx.oid4vciToken.create({ data: { ...token } });
      return true;
    });
  }

  async findToken(tokenHash: string): Promise<TokenRecord | null> {
    return this.prisma.oid4vciToken.findUnique({ where: { tokenHash }, select: { tenantId: true, offerId: true, dpopJkt: true, clientId: true, expiresAt: true } });
  }

  async createNonce(valueHash: string, kind: 'c_nonce' | 'dpop', expiresAt: Date): Promise<void> {
    await this.prisma.oid4vciNonce.create({ data: { valueHash, kind, expiresAt } });
  }

  async consumeNonce(valueHash: string, kind: 'c_nonce' | 'dpop', now: Date): Promise<boolean> {
    const n = await this.prisma.oid4vciNonce.deleteMany({ where: { valueHash, kind, expiresAt: { gt: now } } });
    return n.count === 1;
  }

  async nonceIsLive(valueHash: string, kind: 'c_nonce' | 'dpop', now: Date): Promise<boolean> {
    return (await this.prisma.oid4vciNonce.count({ where: { valueHash, kind, expiresAt: { gt: now } } })) === 1;
  }

  async rememberDpopProof(proofHash: string, expiresAt: Date): Promise<boolean> {
    try {
      await this.prisma.oid4vciDpopProof.create({ data: { proofHash, expiresAt } });
      return true;
    } catch (e) {
      if (isUniqueViolation(e)) return false;
      throw e;
    }
  }

  async recordIssuance(input: Omit<IssuanceRecord, 'event'> & { transactionIdHash: string | null }): Promise<void> {
    await this.prisma.$transaction(async (tx) => {
      await tx.oid4vciIssuance.create({
        data: {
          notificationId: input.notificationId,
          tenantId: input.tenantId,
          offerId: input.offerId,
          configurationId: input.configurationId,
          format: input.format,
          holderKeys: json(input.holderKeys),
          credentialRefs: json(input.credentialRefs),
          transactionIdHash: input.transactionIdHash,
          issuedAt: input.issuedAt,
        },
      });
      if (input.issuedAt) {
        await tx.oid4vciIssuedCredential.createMany({ data: issuedRows(input, input.credentialRefs, input.issuedAt) });
        await tx.oid4vciOffer.updateMany({ where: { id: input.offerId, status: 'token-issued' }, data: { status: 'credential-issued', updatedAt: input.issuedAt } });
      }
    });
  }

  async findIssuanceByTransaction(transactionIdHash: string): Promise<IssuanceRecord | null> {
    const row = await this.prisma.oid4vciIssuance.findUnique({ where: { transactionIdHash } });
    return row ? issuanceOf(row) : null;
  }

  async completeDeferred(transactionIdHash: string, refs: readonly CredentialRef[], at: Date): Promise<boolean> {
    return this.prisma.$transaction(async (tx) => {
      const row = await tx.oid4vciIssuance.findUnique({ where: { transactionIdHash } });
      if (!row || row.issuedAt) return false;
      // The transaction id is spent with the delivery: a second deferred request gets invalid_transaction_id.
      const n = await tx.oid4vciIssuance.updateMany({ where: { transactionIdHash, issuedAt: null }, data: { issuedAt: at, credentialRefs: json(refs), transactionIdHash: null } });
      if (n.count === 0) return false;
      await tx.oid4vciIssuedCredential.createMany({ data: issuedRows(row, refs, at) });
      await tx.oid4vciOffer.updateMany({ where: { id: row.offerId, status: 'token-issued' }, data: { status: 'credential-issued', updatedAt: at } });
      return true;
    });
  }

  async findIssuance(notificationId: string): Promise<IssuanceRecord | null> {
    const row = await this.prisma.oid4vciIssuance.findUnique({ where: { notificationId } });
    return row ? issuanceOf(row) : null;
  }

  async issuancesOf(offerId: string): Promise<IssuanceRecord[]> {
    return (await this.prisma.oid4vciIssuance.findMany({ where: { offerId }, orderBy: { createdAt: 'asc' } })).map(issuanceOf);
  }

  async issuedCredentialsOf(tenantId: string, offerId: string): Promise<IssuedCredentialRecord[]> {
    return (await this.prisma.oid4vciIssuedCredential.findMany({ where: { tenantId, offerId }, orderBy: [{ issuedAt: 'asc' }, { id: 'asc' }] })).map(issuedOf);
  }

  async revokeIssuedCredential(tenantId: string, id: string, at: Date): Promise<IssuedCredentialRecord | null> {
    // Conditional: only the first revocation sets the time, so a retried DELETE answers the same.
    await this.prisma.oid4vciIssuedCredential.updateMany({ where: { id, tenantId, revokedAt: null }, data: { revokedAt: at } });
    const row = await this.prisma.oid4vciIssuedCredential.findFirst({ where: { id, tenantId } });
    return row ? issuedOf(row) : null;
  }

  async recordNotification(notificationId: string, event: NotificationEvent, description: string | null, at: Date): Promise<void> {
    await this.prisma.$transaction(async (tx) => {
      const row = await tx.oid4vciIssuance.update({ where: { notificationId }, data: { event, eventDescription: description, eventAt: at } });
      const status: OfferStatus = event === 'credential_accepted' ? 'accepted' : 'failed';
      await tx.oid4vciOffer.updateMany({ where: { id: row.offerId, revokedAt: null }, data: { status, updatedAt: at } });
    });
  }

  async sweep(now: Date): Promise<void> {
    await this.prisma.oid4vciNonce.deleteMany({ where: { expiresAt: { lte: now } } });
    await this.prisma.oid4vciDpopProof.deleteMany({ where: { expiresAt: { lte: now } } });
  }
}
