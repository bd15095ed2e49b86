import { invalidInput } from '../../errors';
import type { FieldIssue } from '../../errors';
import type { IssueCredentialAInput } from '../../contracts/family-a/issuer';

/** What POST/PUT /issuer/verifiableCredential ask the service for, defaults applied. */
export interface IssueRequest {
  readonly schemaName: string;
  readonly isEncrypted: boolean;
  readonly dependantVerifiableCredential: unknown[];
  readonly credentialSubject: Record<string, unknown>;
  /**
   * Optional gallery face template (from createTemplate) to bind; the credential shows only a
   * commitment to it. On re-issue, absent keeps the prior credential's face and null removes it.
   */
  readonly faceTemplate?: string | null;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * The service's request from the operation's input (REST checked the body against IssueBody,
 * GraphQL's arguments have its shape): the rules beyond shape, checked once for both transports,
 * and the defaults.
 */
export function issueRequestOf(input: IssueCredentialAInput): IssueRequest {
  const issues: FieldIssue[] = [];
  const { schemaName, isEncrypted, dependantVerifiableCredential, credentialSubject, faceTemplate } = input;
  if (schemaName === '' || schemaName.length > 200) issues.push({ field: 'schemaName', message: 'required string (name:version)' });
  if (typeof faceTemplate === 'string' && faceTemplate.length > 16_384) issues.push({ field: 'faceTemplate', message: 'must be a base64 face template' });
  if (issues.length > 0) throw invalidInput('invalid credential request', issues);
  return {
    schemaName,
    isEncrypted: isEncrypted ?? false,
    dependantVerifiableCredential: dependantVerifiableCredential ?? [],
    credentialSubject,
    ...(faceTemplate !== undefined ? { faceTemplate } : {}),
  };
}

/** The `vc` a re-issue or revocation names: an object with a string id. */
export function parseVcReference(vc: unknown, field = 'vc'): { id: string; credential: Record<string, unknown> } {
  if (!isObject(vc) || typeof vc['id'] !== 'string' || vc['id'] === '') throw invalidInput(`${field} must be the credential (an object with its id)`, [{ field, message: 'required credential' }]);
  return { id: vc['id'], credential: vc };
}
