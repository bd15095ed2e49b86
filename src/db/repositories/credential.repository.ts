import { randomUUID } from 'node:crypto';
import { AppError } from '../../errors';
import { markSlot, pickFreeSlot } from '../../domain/status-list';
import type { AnchorRequest, FamilyBCredentialRecord, StatusListRecord } from '../../domain/ports';
import type { Ledger } from '../../ledger/ledger.port';
import { type CacheOptions, LocalInvalidationBus, RecordCache } from '../../cache';
import type { Prisma, PrismaClient } from '../database';
import { isUniqueViolation } from '../prisma-errors';

/** 16 KiB: the W3C minimum, so a list does not reveal how few credentials an issuer has. */
export const STATUS_LIST_BYTES = 16 * 1024;

/** Issues wait on two row locks (status list, log head); give queued transactions room. */
const TX = { maxWait: 60_000, timeout: 60_000 } as const;

type CredRow = Omit<FamilyBCredentialRecord, 'document' | 'status'> & { document: Prisma.JsonValue; status: string };
const toRecord = (r: CredRow): FamilyBCredentialRecord => ({
  id: r.id,
  tenantId: r.tenantId,
  templateId: r.templateId,
  issuerDidId: r.issuerDidId,
  holder: r.holder,
  document: r.document as Record<string, unknown>,
  credentialHash: r.credentialHash,
  statusListId: r.statusListId,
  statusIndex: r.statusIndex,
  status: r.status as 'issued' | 'revoked',
  revokedAt: r.revokedAt,
  expiresAt: r.expiresAt,
});

export interface BuiltCredential {
  readonly id: string;
  readonly document: Record<string, unknown>;
  readonly credentialHash: Uint8Array;
  readonly holder: string | null;
  readonly expiresAt: Date;
  readonly anchor: AnchorRequest;
}

/** One status bit as read for a verification: the list's issuer and the bit (null: index out of range). */
export interface StatusBit {
  readonly issuerDidId: string;
  readonly revoked: boolean | null;
}

/** Largest byte offset PostgreSQL's get_byte takes (int4). */
const MAX_BYTE_INDEX = 2 ** 31 - 1;

/** Family B credentials and the issuers' status lists. */
export class PrismaCredentialRepository {
  /** issuer DID id -> its status list id: fixed once the list exists (lists are never re-created). */
  private readonly listOfIssuer: RecordCache<string>;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly ledger: Ledger,
    cache: CacheOptions = { maxEntries: 0, bus: new LocalInvalidationBus() },
  ) {
    this.listOfIssuer = new RecordCache('status-list-of-issuer', cache.maxEntries, cache.bus);
  }

  /** The issuer's revocation list, created empty on first use (race-safe on the unique issuer). */
  async ensureStatusList(tenantId: string, issuerDidId: string): Promise<string> {
    const found = await this.listOfIssuer.get(issuerDidId, async () => (await this.prisma.statusList.findUnique({ where: { issuerDidId }, select: { id: true } }))?.id ?? null);
    if (found) return found;
    try {
      const row = await this.prisma.statusList.create({
        data: { id: randomUUID(), tenantId, issuerDidId, purpose: 'revocation', bits: new Uint8Array(STATUS_LIST_BYTES), allocated: new Uint8Array(STATUS_LIST_BYTES) },
        select: { id: true },
      });
      return row.id;
    } catch (e) {
      if (!isUniqueViolation(e)) throw e;
      return (await this.prisma.statusList.findUniqueOrThrow({ where: { issuerDidId }, select: { id: true } })).id;
    }
  }

  /**
   * One transaction: draw a free status-list slot at random (row lock), build and sign the
   * credential for it, store it, and anchor its hash in the issuer's credential log.
   *
   * @throws AppError CONFLICT when every slot of the issuer's list is taken.
   */
  async issue(input: { tenantId: string; templateId: string; issuerDidId: string; statusListId: string }, build: (statusIndex: number) => BuiltCredential): Promise<FamilyBCredentialRecord> {
    return this.prisma.$transaction(async (tx) => {
      const [slot] = await tx.$queryRaw<{ next_index: number; allocated: Uint8Array }[]>`SELECT next_index, allocated FROM status_lists WHERE id = ${input.statusListId}::uuid FOR UPDATE`;
      if (!slot) throw new Error('status list vanished');
      const index = slot.next_index >= slot.allocated.length * 8 ? null : pickFreeSlot(slot.allocated);
      if (index === null) throw new AppError('CONFLICT', `the issuer's status list is full (${slot.allocated.length * 8} credentials): issue from another issuer DID`);
      // nextIndex counts the slots handed out; `version` (the public bits) does not move on issuance.
      await tx.statusList.update({ where: { id: input.statusListId }, data: { nextIndex: { increment: 1 }, allocated: Buffer.from(markSlot(slot.allocated, index)) } });
      const built = build(index);
      const row = await tx.credential.create({
        data: {
          id: built.id,
          tenantId: input.tenantId,
          templateId: input.templateId,
          issuerDidId: input.issuerDidId,
          holder: built.holder,
          document: built.document as Prisma.InputJsonObject,
          credentialHash: Buffer.from(built.credentialHash),
          statusListId: input.statusListId,
          statusIndex: index,
          status: 'issued',
          expiresAt: built.expiresAt,
        },
      });
      await this.ledger.appendInTransaction(tx, built.anchor.logId, built.anchor);
      return toRecord(row);
    }, TX);
  }

  async findForTenant(tenantId: string, id: string): Promise<FamilyBCredentialRecord | null> {
    const row = await this.prisma.credential.findFirst({ where: { tenantId, id } });
    return row ? toRecord(row) : null;
  }

  /** Any tenant's credential by id: derived proofs (ZKP tokens) are checked against it wherever they are shown. */
  async findById(id: string): Promise<FamilyBCredentialRecord | null> {
    const row = await this.prisma.credential.findUnique({ where: { id } });
    return row ? toRecord(row) : null;
  }

  /** Sets the status bit, marks the record revoked and anchors the revocation; idempotent. */
  async revoke(tenantId: string, id: string, at: Date, anchor: (record: FamilyBCredentialRecord) => AnchorRequest): Promise<FamilyBCredentialRecord | null> {
    return this.prisma.$transaction(async (tx) => {
      const row = await tx.credential.findFirst({ where: { tenantId, id } });
      if (!row) return null;
      if (row.status === 'revoked') return toRecord(row);
      const [list] = await tx.$queryRaw<{ bits: Uint8Array }[]>`SELECT bits FROM status_lists WHERE id = ${row.statusListId}::uuid FOR UPDATE`;
      const bits = Buffer.from(list!.bits);
      // W3C Bitstring Status List: bit 0 is the most significant bit of byte 0.
      bits[row.statusIndex >> 3]! |= 0x80 >> (row.statusIndex & 7);
      await tx.statusList.update({ where: { id: row.statusListId }, data: { bits, version: { increment: 1 } } });
      const updated = await tx.credential.update({ where: { id }, data: { status: 'revoked', revokedAt: at } });
      const record = toRecord(updated);
      const a = anchor(record);
      await this.ledger.appendInTransaction(tx, a.logId, a);
      return record;
    }, TX);
  }

  /**
   * One bit of a list, read fresh on every call (revocation is never served from a cache), as one
   * small statement: the byte holding the bit, not the 16 KiB list. W3C Bitstring Status List
   * numbers bits from the most significant bit of byte 0. Null when there is no such list.
   */
  async statusBit(listId: string, index: number): Promise<StatusBit | null> {
    const byte = Math.floor(index / 8);
    const at = Number.isSafeInteger(index) && index >= 0 && byte <= MAX_BYTE_INDEX ? byte : -1;
    const [row] = await this.prisma.$queryRaw<{ issuer_did_id: string; byte: number | null }[]>`
      SELECT issuer_did_id::text, CASE WHEN ${at}::int >= 0 AND ${at}::int < octet_length(bits) THEN get_byte(bits, ${at}::int) END AS byte
      FROM status_lists WHERE id = ${listId}::uuid`;
    if (!row) return null;
    return { issuerDidId: row.issuer_did_id, revoked: row.byte === null ? null : ((row.byte >> (7 - (index & 7))) & 1) === 1 };
  }

  async statusList(id: string): Promise<StatusListRecord | null> {
    const row = await this.prisma.statusList.findUnique({ where: { id } });
    return row ? { id: row.id, tenantId: row.tenantId, issuerDidId: row.issuerDidId, purpose: row.purpose, bits: row.bits, version: row.version, updatedAt: row.updatedAt } : null;
  }

  /** The stored signed document when it is of the list's current version; null otherwise (or no such list). */
  async signedStatusList(id: string): Promise<Record<string, unknown> | null> {
    const row = await this.prisma.statusList.findUnique({ where: { id }, select: { version: true, signedVersion: true, signedDocument: true } });
    return row && row.signedVersion === row.version && row.signedDocument !== null ? (row.signedDocument as Record<string, unknown>) : null;
  }

  /** Stores the signed document of `version`, unless the bits moved on meanwhile (then the next read re-signs). */
  async storeSignedStatusList(id: string, version: number, document: Record<string, unknown>): Promise<void> {
    await this.prisma.statusList.updateMany({ where: { id, version }, data: { signedDocument: document as Prisma.InputJsonObject, signedVersion: version } });
  }
}
