import { Arg, Authorized, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';
import { invalidInput } from '../../../errors';
import type { CredentialsService, HolderProof, IssueResult } from '../../../services/family-a/credentials.service';
import { type IssueRequest, issueRequestOf } from '../../../services/family-a/issue-request';
import type { IssuerDidService } from '../../../services/family-a/issuer-did.service';
import type { ZkpService } from '../../../services/family-a/zkp.service';
import type { GraphQLContext } from '../../context';
import { HolderProofInput, IssueCredentialInput } from '../../types/family-a/credential.input';
import { IssueCredentialPayload, RevokeCredentialPayload } from '../../types/family-a/credential.type';
import { CreateZkpInput } from '../../types/family-a/zkp.input';
import { ZkpCertificatePayload } from '../../types/family-a/zkp.type';

const toHolder = (h: HolderProofInput): HolderProof => ({ did: h.did, publicKey: h.publicKey, userSignature: h.userSignature });

/** The operation's input from the GraphQL arguments (GraphQL's null, not given, left out), checked by the rules REST's goes through. */
function toIssueRequest(input: IssueCredentialInput): IssueRequest {
  return issueRequestOf({
    schemaName: input.schemaName,
    ...(input.isEncrypted != null ? { isEncrypted: input.isEncrypted } : {}),
    ...(input.dependantVerifiableCredential != null ? { dependantVerifiableCredential: input.dependantVerifiableCredential } : {}),
    credentialSubject: input.credentialSubject,
    // An explicit null (re-issue: remove the bound face) differs from an absent field (keep it).
    ...(input.faceTemplate !== undefined ? { faceTemplate: input.faceTemplate } : {}),
  });
}

const toPayload = (r: IssueResult): IssueCredentialPayload => ({
  verifiableCredential: r.verifiableCredential,
  userSignature: r.userSignature,
  cryptograph: r.cryptograph ?? null,
  cryptographPng: r.cryptographPng ? r.cryptographPng.toString('base64') : null,
});

/** Family A issuer side: the issuer DID, issuance, re-issuance, revocation and ZKP certificates. */
@Resolver()
export class IssuerResolver {
  constructor(
    private readonly issuerDids: IssuerDidService,
    private readonly credentials: CredentialsService,
    private readonly zkp: ZkpService,
  ) {}

  @Authorized('issuer')
  @Query(() => String, { description: "REST: GET /issuer/did. The tenant's Family A issuer DID, created on first use." })
  async issuerDid(@Ctx() ctx: GraphQLContext): Promise<string> {
    return (await this.issuerDids.current(ctx.actor)).did;
  }

  @Authorized('issuer')
  @Mutation(() => Boolean, { description: 'REST: DELETE /issuer/did/{did}. The next issuance creates a new issuer DID.' })
  async deleteIssuerDid(@Arg('did', () => String) did: string, @Ctx() ctx: GraphQLContext): Promise<boolean> {
    await this.issuerDids.delete(ctx.actor, did);
    return true;
  }

  @Authorized('issuer')
  @Mutation(() => IssueCredentialPayload, { description: 'REST: POST /issuer/verifiableCredential (holder = the did, publicKey and userSignature headers).' })
  async issueCredential(
    @Arg('holder', () => HolderProofInput) holder: HolderProofInput,
    @Arg('input', () => IssueCredentialInput) input: IssueCredentialInput,
    @Arg('isCryptograph', () => Boolean, { nullable: true, defaultValue: false }) isCryptograph: boolean | null,
    @Arg('downloadCryptograph', () => Boolean, { nullable: true, defaultValue: false }) downloadCryptograph: boolean | null,
    @Ctx() ctx: GraphQLContext,
  ): Promise<IssueCredentialPayload> {
    const options = { cryptograph: isCryptograph === true, cryptographPng: downloadCryptograph === true };
    return toPayload(await this.credentials.issue(ctx.actor, toHolder(holder), toIssueRequest(input), options));
  }

  @Authorized('issuer')
  @Mutation(() => IssueCredentialPayload, { description: 'REST: PUT /issuer/verifiableCredential. The prior credential `vc` becomes superseded.' })
  async reissueCredential(
    @Arg('holder', () => HolderProofInput) holder: HolderProofInput,
    @Arg('input', () => IssueCredentialInput) input: IssueCredentialInput,
    @Arg('vc', () => GraphQLJSONObject) vc: Record<string, unknown>,
    @Arg('isCryptograph', () => Boolean, { nullable: true, defaultValue: false }) isCryptograph: boolean | null,
    @Arg('downloadCryptograph', () => Boolean, { nullable: true, defaultValue: false }) downloadCryptograph: boolean | null,
    @Ctx() ctx: GraphQLContext,
  ): Promise<IssueCredentialPayload> {
    const options = { cryptograph: isCryptograph === true, cryptographPng: downloadCryptograph === true };
    return toPayload(await this.credentials.reissue(ctx.actor, toHolder(holder), toIssueRequest(input), vc, options));
  }

  @Authorized('issuer', 'holder')
  @Mutation(() => RevokeCredentialPayload, {
    description:
      "REST: DELETE /issuer/verifiableCredential. publicKey is the holder's or the issuer's key. With the issuer scope, the holder's publicKey and the issuance userSignature revoke; a holder key needs the holder revocation proof (signHolderProof, purpose revoke).",
  })
  async revokeCredential(
    @Arg('vc', () => GraphQLJSONObject) vc: Record<string, unknown>,
    @Arg('publicKey', () => String) publicKey: string,
    @Arg('userSignature', () => String) userSignature: string,
    @Ctx() ctx: GraphQLContext,
  ): Promise<RevokeCredentialPayload> {
    const credentialId = await this.credentials.revoke(ctx.actor, { publicKey, userSignature }, vc);
    return { revoked: true, credentialId, message: `Verifiable Credential ${credentialId} has been revoked` };
  }

  @Authorized('issuer')
  @Mutation(() => ZkpCertificatePayload, { description: 'REST: POST /issuer/createZkp (conditions are the top-level REST keys).' })
  async createZkpCertificate(@Arg('input', () => CreateZkpInput) input: CreateZkpInput, @Ctx() ctx: GraphQLContext): Promise<ZkpCertificatePayload> {
    // REST cannot name these as conditions (they are its other top-level keys); GraphQL refuses them alike.
    const reserved = ['credentials', 'verifyParams', 'proofSystem', 'verifierChallenge'].filter((k) => Object.hasOwn(input.conditions, k));
    if (reserved.length > 0) throw invalidInput('conditions cannot name credentials, verifyParams, proofSystem or verifierChallenge', reserved.map((k) => ({ field: `conditions.${k}`, message: 'reserved' })));
    const r = await this.zkp.create(ctx.actor, {
      credentials: input.credentials,
      conditions: input.conditions,
      ...(input.verifyParams != null ? { verifyParams: input.verifyParams } : {}),
      ...(input.proofSystem != null ? { proofSystem: input.proofSystem } : {}),
      ...(input.verifierChallenge != null ? { verifierChallenge: { verifierId: input.verifierChallenge.verifierId, nonce: input.verifierChallenge.nonce } } : {}),
    });
    const statement = r.statement ? { ...r.statement, predicates: r.statement.predicates.map((p) => ({ ...p })) } : null;
    return {
      certificate: { ...r.certificate },
      userSignature: r.userSignature,
      publicKey: r.publicKey,
      statement,
      proofSystem: r.proofSystem,
      zkStatement: r.zkStatement ? (JSON.parse(JSON.stringify(r.zkStatement)) as Record<string, unknown>) : null,
    };
  }
}
