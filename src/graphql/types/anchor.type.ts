import { Field, Int, ObjectType } from 'type-graphql';

@ObjectType({ description: 'Proof that a checkpoint reached an external ledger (EVM chain or Hedera); fields that do not apply to the network are null.' })
export class AnchorReceiptType {
  @Field(() => String, { description: 'evm or hedera: which adapter made (and can check) the receipt.' })
  adapter!: string;

  @Field(() => String, { description: 'evm:<chainId> or hedera:<network>.' })
  network!: string;

  @Field(() => String, { description: 'EVM transaction hash or Hedera transaction id.' })
  txId!: string;

  @Field(() => String, { description: 'EVM: the anchoring contract address. Hedera: the topic id (or the file id of a DID document file).' })
  target!: string;

  @Field(() => String, { nullable: true, description: 'EVM block number (decimal).' })
  blockNumber?: string | null;

  @Field(() => Int, { nullable: true, description: 'EVM: index of the Anchored event in its block.' })
  logIndex?: number | null;

  @Field(() => String, { nullable: true, description: 'Hedera consensus timestamp seconds.nanos.' })
  consensusTimestamp?: string | null;

  @Field(() => String, { nullable: true, description: 'Hedera topic sequence number (decimal).' })
  sequenceNumber?: string | null;

  @Field(() => String, { nullable: true, description: 'Hedera topic running hash, base64.' })
  runningHash?: string | null;

  @Field(() => String, { nullable: true, description: "Hedera, a DID's document-file log: SHA-256 (base64) of the DID document written into the file (target is the file id)." })
  fileHash?: string | null;

  @Field(() => String)
  logId!: string;

  @Field(() => Int)
  treeSize!: number;

  @Field(() => String, { description: 'The anchored root, base64.' })
  rootHash!: string;
}

@ObjectType({ description: 'The receipt re-read from the ledger: valid, invalid (the ledger disagrees) or unavailable (it could not be read).' })
export class AnchorReceiptCheck {
  @Field(() => String)
  status!: string;

  @Field(() => String, { nullable: true })
  reason?: string | null;
}

@ObjectType({ description: 'Anchoring of one signed head (REST: GET /ledger/{logId}/anchors/{treeSize}).' })
export class LedgerAnchorStatus {
  @Field(() => String)
  logId!: string;

  @Field(() => Int)
  treeSize!: number;

  @Field(() => String, { description: 'Root of the signed head, base64.' })
  rootHash!: string;

  @Field(() => String, { description: 'pending, anchored or failed.' })
  status!: string;

  @Field(() => Int, { description: 'Submissions tried so far.' })
  attempts!: number;

  @Field(() => AnchorReceiptType, { nullable: true })
  receipt!: AnchorReceiptType | null;

  @Field(() => String, { nullable: true, description: 'Why the last attempt failed (pending with a retry scheduled, or failed).' })
  lastError!: string | null;

  @Field(() => AnchorReceiptCheck, { nullable: true, description: 'Present when the row is anchored and this service can read the ledger.' })
  check?: AnchorReceiptCheck | null;
}
