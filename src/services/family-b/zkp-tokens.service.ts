import { AppError, invalidInput, notFound } from '../../errors';
import { subjectOf } from '../../domain/credentials/family-b-credential';
import { bytesToHex } from '../../domain/encoding';
import type { Clock, DidRepository, KeyCustody } from '../../domain/ports';
import type { TemplateAttribute } from '../../domain/templates';
import { createZkpToken, verifyZkpToken, type ZkpData } from '../../domain/zkp-tokens';
import type { Actor } from '../../domain/tenancy/actor';
import type { PrismaCredentialRepository } from '../../db/repositories/credential.repository';
import type { PrismaTemplateRepository } from '../../db/repositories/template.repository';
import type { FamilyBCredentialsService, Json } from './credentials.service';

const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * ZKP tokens: the issuer evaluates an age condition over a credential it issued and signs only the
 * outcome (a signed predicate attestation, not a cryptographic zero-knowledge proof).
 */
export class ZkpTokensService {
  constructor(
    private readonly credentials: PrismaCredentialRepository,
    private readonly templates: PrismaTemplateRepository,
    private readonly familyB: FamilyBCredentialsService,
    private readonly dids: DidRepository,
    private readonly custody: KeyCustody,
    private readonly clock: Clock,
  ) {}

  /** POST /createZkpToken `{ credentialId | credential, attribute?, condition: { age } }`. */
  async create(actor: Actor, body: unknown): Promise<{ zkpToken: string; zkpData: ZkpData; publicKey: string }> {
    if (!isObject(body)) throw invalidInput('request body must be a JSON object');
    const { credentialId, credential, attribute, condition } = body;
    const id = typeof credentialId === 'string' ? credentialId : isObject(credential) && typeof credential['id'] === 'string' ? credential['id'] : undefined;
    if (!id) throw invalidInput('credentialId or credential is required', [{ field: 'credentialId', message: 'required' }]);
    if (!isObject(condition)) throw invalidInput('condition must be an object such as { "age": 18 }', [{ field: 'condition', message: 'required object' }]);
    const record = await this.credentials.findForTenant(actor.tenantId, id);
    if (!record) throw notFound('credential');
    if (record.status !== 'issued') throw new AppError('INVALID_INPUT', 'credential is revoked');
    const template = await this.templates.findInternal(record.templateId);
    const attr = typeof attribute === 'string' ? attribute : this.birthDateAttribute(template?.attributes as TemplateAttribute[] | undefined);
    if (!attr) throw invalidInput('the credential has no date attribute to evaluate; name one in attribute');
    const birthDate = subjectOf(record.document)?.[attr];
    if (typeof birthDate !== 'string') throw invalidInput(`attribute ${attr} holds no date`, [{ field: 'attribute', message: 'not a date attribute' }]);
    const issuer = (await this.dids.findById(record.issuerDidId))!;
    if (!issuer.managedKeyId) throw new AppError('INVALID_INPUT', 'issuer key is not held by this tenant');
    return this.custody.use(actor.tenantId, issuer.managedKeyId, (sk) =>
      createZkpToken({ credentialId: id, issuer: issuer.did, attribute: attr, condition: condition as { age: number }, birthDate, now: this.clock.now() }, bytesToHex(sk)),
    );
  }

  /** POST /verifyZkpToken: the signature, the data, and that the key is the issuer's. */
  async verify(body: unknown): Promise<{ success: true; conditionMet: boolean; calculatedAge: number; message: string }> {
    if (!isObject(body) || typeof body['publicKey'] !== 'string') throw invalidInput('zkpToken, zkpData and publicKey are required');
    const v = verifyZkpToken({ zkpToken: body['zkpToken'], zkpData: body['zkpData'], publicKey: body['publicKey'] });
    if (!v.valid || !v.claims) throw new AppError('VERIFICATION_FAILED', `ZKP token is invalid: ${v.reason ?? 'signature'}`);
    const issuer = await this.familyB.issuerRecord(v.claims.issuer);
    if (!issuer || issuer.publicKeyHex !== body['publicKey'].toLowerCase()) throw new AppError('VERIFICATION_FAILED', 'publicKey is not the key of the token issuer');
    const { conditionMet, calculatedAge } = v.claims.zkpData;
    return { success: true, conditionMet, calculatedAge, message: conditionMet ? 'ZKP token verified: condition met' : 'ZKP token verified: condition not met' };
  }

  /** The default attribute: a date attribute named like a birth date, else the first date attribute. */
  private birthDateAttribute(attrs: readonly TemplateAttribute[] | undefined): string | undefined {
    const dates = (attrs ?? []).filter((a) => a.type === 'date');
    return (dates.find((a) => /birth|dob/i.test(a.attributeName)) ?? dates[0])?.attributeName;
  }
}
