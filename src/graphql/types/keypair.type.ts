import { Field, ID, ObjectType } from 'type-graphql';

@ObjectType({ description: 'A secp256k1 key pair; the private key is returned this once and kept sealed by the service.' })
export class GeneratedKeypair {
  @Field(() => ID, { description: 'Custody id of the sealed private key.' })
  keyId!: string;

  @Field(() => String)
  algorithm!: string;

  @Field(() => String, { description: 'Compressed SEC1 public key, hex.' })
  publicKey!: string;

  @Field(() => String, { description: 'Private key, hex. Never returned again.' })
  privateKey!: string;
}

@ObjectType({ description: 'A Family A Ed25519 key pair (base64). Not stored by the service.' })
export class UserKeyPair {
  @Field(() => String)
  privateKey!: string;

  @Field(() => String)
  publicKey!: string;
}
