import { Field, InputType } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';
import { VerifierChallengeInput } from '../family-b/zkp-token.input';

@InputType({ description: 'A ZKP certificate as createZkpCertificate returned it, with the signatures.' })
export class ZkpCertificateInput {
  @Field(() => GraphQLJSONObject)
  certificate!: Record<string, unknown>;

  @Field(() => String, { description: 'The userSignature createZkpCertificate returned (issuer signature), hex.' })
  zkpSignature!: string;

  @Field(() => String, { description: "The issuer's Ed25519 public key, base64." })
  publicKey!: string;

  @Field(() => String, { nullable: true, description: "The holder's userSignature from issuance; when given it must be that one." })
  userSignature?: string;

  @Field(() => GraphQLJSONObject, { nullable: true, description: 'The statement createZkpCertificate returned (what the signature covers). Optional: without it the service uses the statement it stored under zkpSignature.' })
  statement?: Record<string, unknown>;

  @Field(() => String, { nullable: true, description: 'attestation (default) or bbs-bulletproofs: zkpSignature is then the proof, publicKey the issuer BBS key, and no credential is needed.' })
  proofSystem?: string;
}

@InputType({ description: "A challenge-bound holder proof: the holder's signature over the verifier's nonce and the credential id (signHolderProof, purpose verify)." })
export class HolderChallengeProofInput {
  @Field(() => String, { description: "The verifier's nonce (16..256 printable ASCII)." })
  nonce!: string;

  @Field(() => String, { description: 'Ed25519 signature, hex.' })
  signature!: string;
}

@InputType({ description: 'REST: the headers and body of POST /verifier/verify.' })
export class VerifyCredentialInput {
  @Field(() => String, { nullable: true, description: 'A probe face template to compare with the face bound in the credential.' })
  probeTemplate?: string;

  @Field(() => String, { description: 'The holder Ed25519 public key, base64.' })
  publicKey!: string;

  @Field(() => String, { nullable: true, description: 'The userSignature returned by issuance (static, replayable); optional with holderProof.' })
  userSignature?: string;

  @Field(() => HolderChallengeProofInput, { nullable: true, description: 'The strong holder proof: a fresh signature over the verifier nonce and the credential id.' })
  holderProof?: HolderChallengeProofInput;

  @Field(() => Boolean, { nullable: true, defaultValue: false })
  zkpValidation?: boolean;

  @Field(() => GraphQLJSONObject, { nullable: true, description: 'The credential; give this or cryptograph.' })
  credentials?: Record<string, unknown>;

  @Field(() => String, { nullable: true, description: 'The cryptograph text; give this or credentials.' })
  cryptograph?: string;

  @Field(() => [String], { nullable: true, description: '`attribute=value` strings.' })
  verifyParams?: string[];

  @Field(() => ZkpCertificateInput, { nullable: true, description: 'Required when zkpValidation.' })
  zkpCertificate?: ZkpCertificateInput;

  @Field(() => VerifierChallengeInput, { nullable: true, description: 'bbs-bulletproofs: the challenge this verifier issued (the proof must be bound to it).' })
  verifierChallenge?: VerifierChallengeInput;
}
