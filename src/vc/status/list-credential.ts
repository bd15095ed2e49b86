import { AppError, type FieldIssue, summarizeIssues } from '../../errors';
import { STATUS_PURPOSES, buildStatusListEntry, type StatusPurpose } from '../../domain/status-list';
import type { JsonObject } from '../ports';
import { encodeStatusList } from './codec';

export const CREDENTIALS_V1_CONTEXT = 'https://www.w3.org/2018/credentials/v1';
export const CREDENTIALS_V2_CONTEXT = 'https://www.w3.org/ns/credentials/v2';
/** The Bitstring Status List context, needed beside the VCDM 1.1 context (2.0's context defines the terms). */
export const BITSTRING_STATUS_LIST_CONTEXT = 'https://www.w3.org/ns/credentials/status/v1';

export interface StatusListCredentialBuild {
  /** The URL the list credential is published at; also its id. */
  readonly id: string;
  readonly issuer: string;
  readonly statusPurpose: string;
  readonly bits: Uint8Array;
  readonly version: '1.1' | '2.0';
  /** XMLSchema dateTime; 2.0: validFrom (omitted when absent); 1.1: issuanceDate (required there, so defaults to now). */
  readonly validFrom?: string;
}

function isPurpose(v: unknown): v is StatusPurpose {
  return typeof v === 'string' && (STATUS_PURPOSES as readonly string[]).includes(v);
}

function isUrl(v: unknown): boolean {
  if (typeof v !== 'string') return false;
  try {
    new URL(v);
    return true;
  } catch {
    return false;
  }
}

const wholeSecondsNow = (): string => new Date(Math.floor(Date.now() / 1000) * 1000).toISOString().replace('.000Z', 'Z');

/**
 * The unsigned BitstringStatusListCredential (Bitstring Status List v1.0 §2.2): VCDM 2.0, or
 * VCDM 1.1 with the status list context. Securing it with a proof is the caller's job.
 */
export function buildStatusListCredential(input: StatusListCredentialBuild): JsonObject {
  const issues: FieldIssue[] = [];
  if (!isUrl(input.id)) issues.push({ field: 'id', message: 'id must be the URL the list is published at' });
  if (typeof input.issuer !== 'string' || input.issuer.length === 0) issues.push({ field: 'issuer', message: 'issuer must be a non-empty string' });
  if (!isPurpose(input.statusPurpose)) issues.push({ field: 'statusPurpose', message: `statusPurpose must be one of ${STATUS_PURPOSES.join(', ')}` });
  if (input.version !== '1.1' && input.version !== '2.0') issues.push({ field: 'version', message: "version must be '1.1' or '2.0'" });
  if (input.validFrom !== undefined && (typeof input.validFrom !== 'string' || Number.isNaN(Date.parse(input.validFrom)))) {
    issues.push({ field: 'validFrom', message: 'validFrom must be an XMLSchema dateTime' });
  }
  if (issues.length > 0) throw new AppError('INVALID_INPUT', summarizeIssues('invalid status list credential', issues), issues);
  const credentialSubject = { id: `${input.id}#list`, type: 'BitstringStatusList', statusPurpose: input.statusPurpose, encodedList: encodeStatusList(input.bits) };
  const type = ['VerifiableCredential', 'BitstringStatusListCredential'];
  if (input.version === '2.0') {
    return { '@context': [CREDENTIALS_V2_CONTEXT], id: input.id, type, issuer: input.issuer, ...(input.validFrom !== undefined ? { validFrom: input.validFrom } : {}), credentialSubject };
  }
  return { '@context': [CREDENTIALS_V1_CONTEXT, BITSTRING_STATUS_LIST_CONTEXT], id: input.id, type, issuer: input.issuer, issuanceDate: input.validFrom ?? wholeSecondsNow(), credentialSubject };
}

/** A BitstringStatusListEntry (§2.1) for bit `index` of the list at `listCredentialUrl`: id `<list>#<index>`, index as a string. */
export function statusListEntry(input: { listCredentialUrl: string; index: number; statusPurpose: string }): JsonObject {
  if (!isPurpose(input.statusPurpose)) {
    const message = `statusPurpose must be one of ${STATUS_PURPOSES.join(', ')}`;
    throw new AppError('INVALID_INPUT', message, [{ field: 'statusPurpose', message }]);
  }
  return { ...buildStatusListEntry({ listCredentialUrl: input.listCredentialUrl, index: input.index, purpose: input.statusPurpose }) };
}
