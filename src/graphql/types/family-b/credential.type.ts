import { Field, Int, ObjectType } from 'type-graphql';
import { LedgerAnchorStatus } from '../anchor.type';

@ObjectType({ description: 'REST: the answer of DELETE /credentials/{id}.' })
export class CredentialRevocation {
  @Field(() => String)
  id!: string;

  @Field(() => String, { description: 'Always `revoked`.' })
  status!: string;

  @Field(() => String, { description: 'When the status bit was set (revoking again answers the same instant).' })
  revokedAt!: string;
}

@ObjectType({ description: 'REST: the Credential-Status and Credential-Revoked-At headers of GET /credentials/{id}.' })
export class TemplateCredentialStatus {
  @Field(() => String)
  id!: string;

  @Field(() => String, { description: '`issued` or `revoked`.' })
  status!: string;

  @Field(() => String, { nullable: true, description: 'When it was revoked (ISO 8601 UTC); null while issued.' })
  revokedAt!: string | null;
}

@ObjectType({ description: 'One check of a credential verification.' })
export class VerificationCheck {
  @Field(() => String, { description: 'format, signature, disclosures, ledger, witnesses (only when witnesses are configured), status or expiry.' })
  check!: string;

  @Field(() => Boolean)
  ok!: boolean;

  @Field(() => String, { nullable: true })
  detail!: string | null;
}

@ObjectType({ description: "Everything a client needs to check the credential's anchoring in the issuer's log itself." })
export class CredentialAnchor {
  @Field(() => String)
  logId!: string;

  @Field(() => Int)
  leafIndex!: number;

  @Field(() => Int)
  treeSize!: number;

  @Field(() => String, { description: 'Lowercase hex SHA-256 of the credential.' })
  entryHash!: string;

  @Field(() => [String], { description: 'base64 inclusion proof hashes, lowest first.' })
  inclusionProof!: string[];

  @Field(() => String, { description: 'The signed checkpoint note the proof is against.' })
  checkpoint!: string;

  @Field(() => String, { description: 'Ed25519 public key of the log, base64.' })
  logPublicKey!: string;

  @Field(() => LedgerAnchorStatus, { nullable: true, description: 'Anchoring of this checkpoint on the external ledger (CREDGATE_ANCHOR), receipt re-checked; null when anchoring is off.' })
  anchoring?: LedgerAnchorStatus | null;
  @Field(() => Int, { description: 'Witness cosignatures of the checkpoint that verified (their lines follow the log signature in checkpoint).' })
  witnessCosignatures!: number;

  @Field(() => Int, { description: 'Witness cosignatures the deployment requires (CREDGATE_WITNESS_QUORUM); 0 without witnesses.' })
  witnessQuorum!: number;
}

@ObjectType({ description: 'REST: the answer of POST /credentials/verify. Every check runs; verified is their conjunction.' })
export class CredentialVerificationResult {
  @Field(() => Boolean)
  verified!: boolean;

  @Field(() => [VerificationCheck])
  checks!: VerificationCheck[];

  @Field(() => CredentialAnchor, { nullable: true, description: 'Present when the credential hash is anchored in the issuer log.' })
  anchor!: CredentialAnchor | null;
}
