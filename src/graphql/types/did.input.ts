import { Field, InputType } from 'type-graphql';

@InputType()
export class CreateDidInput {
  @Field(() => String, { description: "The service's own method name or `key`." })
  method!: string;

  @Field(() => String, { description: 'Public key, hex (secp256k1 compressed/uncompressed, or 32-byte Ed25519).' })
  publicKey!: string;

  @Field(() => String, { nullable: true, description: 'secp256k1 (default) or Ed25519.' })
  keyType?: string;
}
