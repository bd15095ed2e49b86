import { AppError, type FieldIssue, summarizeIssues } from '../../errors';

/** VC Data Model 2.0 base context, the only context Bitstring Status List v1.0 requires. */
export const CREDENTIALS_V2_CONTEXT = 'https://www.w3.org/ns/credentials/v2';

/**
 * Status purposes this service issues lists for. The spec also defines `refresh` and `message`
 * (the latter with multi-bit entries, `statusSize` > 1); neither is produced here.
 */
export const STATUS_PURPOSES = ['revocation', 'suspension'] as const;
export type StatusPurpose = (typeof STATUS_PURPOSES)[number];

/** Unsigned BitstringStatusListCredential, Bitstring Status List v1.0 §2.2. */
export interface StatusListCredential {
  '@context': string[];
  id: string;
  type: ['VerifiableCredential', 'BitstringStatusListCredential'];
  issuer: string;
  validFrom: string;
  validUntil?: string;
  credentialSubject: {
    id: string;
    type: 'BitstringStatusList';
    statusPurpose: StatusPurpose;
    encodedList: string;
  };
}

/** BitstringStatusListEntry, Bitstring Status List v1.0 §2.1, placed in a credential's `credentialStatus`. */
export interface StatusListEntry {
  id: string;
  type: 'BitstringStatusListEntry';
  statusPurpose: StatusPurpose;
  /** A decimal string, as the spec requires (not a JSON number). */
  statusListIndex: string;
  statusListCredential: string;
}

export interface StatusListCredentialInput {
  /** URL at which the status list credential is published. */
  id: string;
  issuer: string;
  validFrom: string;
  validUntil?: string;
  statusPurpose: StatusPurpose;
  encodedList: string;
}

export interface StatusListEntryInput {
  listCredentialUrl: string;
  index: number;
  purpose: StatusPurpose;
}

function isPurpose(v: unknown): v is StatusPurpose {
  return typeof v === 'string' && (STATUS_PURPOSES as readonly string[]).includes(v);
}

function requireText(issues: FieldIssue[], field: string, v: unknown): void {
  if (typeof v !== 'string' || v.length === 0) issues.push({ field, message: `${field} must be a non-empty string` });
}

function purposeIssue(issues: FieldIssue[], field: string, v: unknown): void {
  if (!isPurpose(v)) issues.push({ field, message: `${field} must be one of ${STATUS_PURPOSES.join(', ')}` });
}

function throwIfAny(issues: FieldIssue[], what: string): void {
  if (issues.length > 0) throw new AppError('INVALID_INPUT', summarizeIssues(`invalid ${what}`, issues), issues);
}

/**
 * Builds the unsigned status list credential in the shape of the spec's example (§2.2). The
 * subject id is `${id}#list`. Securing it (a proof) is the caller's job.
 */
export function buildStatusListCredential(input: StatusListCredentialInput): StatusListCredential {
  const issues: FieldIssue[] = [];
  requireText(issues, 'id', input.id);
  requireText(issues, 'issuer', input.issuer);
  requireText(issues, 'validFrom', input.validFrom);
  if (input.validUntil !== undefined) requireText(issues, 'validUntil', input.validUntil);
  purposeIssue(issues, 'statusPurpose', input.statusPurpose);
  if (typeof input.encodedList !== 'string' || !input.encodedList.startsWith('u')) {
    issues.push({ field: 'encodedList', message: 'encodedList must be multibase base64url (prefix u)' });
  }
  throwIfAny(issues, 'status list credential');
  const credential: StatusListCredential = {
    '@context': [CREDENTIALS_V2_CONTEXT],
    id: input.id,
    type: ['VerifiableCredential', 'BitstringStatusListCredential'],
    issuer: input.issuer,
    validFrom: input.validFrom,
    credentialSubject: {
      id: `${input.id}#list`,
      type: 'BitstringStatusList',
      statusPurpose: input.statusPurpose,
      encodedList: input.encodedList,
    },
  };
  if (input.validUntil !== undefined) credential.validUntil = input.validUntil;
  return credential;
}

/** Builds the `credentialStatus` entry pointing at bit `index` of the list at `listCredentialUrl`. */
export function buildStatusListEntry(input: StatusListEntryInput): StatusListEntry {
  const issues: FieldIssue[] = [];
  requireText(issues, 'listCredentialUrl', input.listCredentialUrl);
  if (!Number.isSafeInteger(input.index) || input.index < 0) {
    issues.push({ field: 'index', message: 'index must be a non-negative integer' });
  }
  purposeIssue(issues, 'purpose', input.purpose);
  throwIfAny(issues, 'status list entry');
  return {
    id: `${input.listCredentialUrl}#${input.index}`,
    type: 'BitstringStatusListEntry',
    statusPurpose: input.purpose,
    statusListIndex: String(input.index),
    statusListCredential: input.listCredentialUrl,
  };
}

/**
 * Parses a `statusListIndex`: a decimal string of digits without leading zeros (so each index has
 * one spelling) that fits a safe integer. JSON numbers are rejected because the spec requires a string.
 */
export function parseStatusListIndex(value: unknown, field = 'statusListIndex'): number {
  if (typeof value !== 'string' || !/^(?:0|[1-9][0-9]{0,15})$/.test(value) || !Number.isSafeInteger(Number(value))) {
    const message = `${field} must be a decimal string of a non-negative integer`;
    throw new AppError('INVALID_INPUT', message, [{ field, message }]);
  }
  return Number(value);
}
