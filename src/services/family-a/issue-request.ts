import { invalidInput } from '../../errors';
import type { FieldIssue } from '../../errors';

/** The body of POST/PUT /issuer/verifiableCredential, checked once for both transports. */
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

export function parseIssueRequest(body: unknown): IssueRequest {
  if (!isObject(body)) throw invalidInput('request body must be a JSON object');
  const issues: FieldIssue[] = [];
  const { schemaName, isEncrypted, dependantVerifiableCredential, credentialSubject, faceTemplate } = body;
  if (typeof schemaName !== 'string' || schemaName === '' || schemaName.length > 200) issues.push({ field: 'schemaName', message: 'required string (name:version)' });
  if (isEncrypted !== undefined && typeof isEncrypted !== 'boolean') issues.push({ field: 'isEncrypted', message: 'must be a boolean' });
  if (dependantVerifiableCredential !== undefined && !Array.isArray(dependantVerifiableCredential)) issues.push({ field: 'dependantVerifiableCredential', message: 'must be an array' });
  if (!isObject(credentialSubject)) issues.push({ field: 'credentialSubject', message: 'required object' });
  if (faceTemplate !== undefined && faceTemplate !== null && (typeof faceTemplate !== 'string' || faceTemplate.length > 16_384)) {
    issues.push({ field: 'faceTemplate', message: 'must be a base64 face template' });
  }
  if (issues.length > 0) throw invalidInput('invalid credential request', issues);
  return {
    schemaName: schemaName as string,
    isEncrypted: (isEncrypted as boolean | undefined) ?? false,
    dependantVerifiableCredential: (dependantVerifiableCredential as unknown[] | undefined) ?? [],
    credentialSubject: credentialSubject as Record<string, unknown>,
    ...(typeof faceTemplate === 'string' || faceTemplate === null ? { faceTemplate } : {}),
  };
}

/** The `vc` a re-issue or revocation names: an object with a string id. */
export function parseVcReference(vc: unknown, field = 'vc'): { id: string; credential: Record<string, unknown> } {
  if (!isObject(vc) || typeof vc['id'] !== 'string' || vc['id'] === '') throw invalidInput(`${field} must be the credential (an object with its id)`, [{ field, message: 'required credential' }]);
  return { id: vc['id'], credential: vc };
}
