import { Field, Int, ObjectType } from 'type-graphql';

@ObjectType({ description: "A configured witness's standing on a served head (C2SP tlog-witness)." })
export class LedgerWitness {
  @Field(() => String, { description: 'Witness key name.' })
  name!: string;

  @Field(() => String, { description: 'C2SP verifier key <name>+<keyid>+<base64(0x04||pubkey)> (cosignature/v1).' })
  verifierKey!: string;

  @Field(() => Boolean, { description: 'A cosignature of this head verified under the witness key.' })
  cosigned!: boolean;

  @Field(() => String, { nullable: true, description: 'ISO 8601 time inside that cosignature.' })
  cosignedAt!: string | null;

  @Field(() => Int, { nullable: true, description: 'Largest size the witness is known to have cosigned; null before it answered.' })
  witnessedSize!: number | null;

  @Field(() => String, { nullable: true, description: 'Why the last request to the witness failed (down, 409, 422), or null.' })
  lastError!: string | null;
}

@ObjectType({ description: 'A signed C2SP checkpoint of a ledger log head (REST: GET /ledger/{logId}/checkpoint).' })
export class LedgerCheckpoint {
  @Field(() => String, { description: 'Ledger id 0.0.<n>.' })
  logId!: string;

  @Field(() => String, { description: 'Checkpoint origin line: <origin>/<logId>.' })
  origin!: string;

  @Field(() => Int)
  treeSize!: number;

  @Field(() => String, { description: 'RFC 9162 root hash, base64.' })
  rootHash!: string;

  @Field(() => String, { description: 'The signed note: checkpoint body, blank line, signature line.' })
  note!: string;

  @Field(() => String, { description: 'C2SP verifier key <name>+<keyid>+<base64(0x01||pubkey)>.' })
  verifierKey!: string;

  @Field(() => String, { description: 'Ed25519 public key of the log, base64.' })
  publicKey!: string;

  @Field(() => String, { description: 'ISO 8601 time this head was signed. Not in the note; reads serve the stored head and never re-sign.' })
  signedAt!: string;

  @Field(() => [LedgerWitness], { description: 'Each configured witness and whether its verified cosignature of this head is in the note.' })
  witnesses!: LedgerWitness[];

  @Field(() => Int, { description: 'Cosignatures of this head that verified under the configured witness keys (their lines follow the log signature in note).' })
  witnessCosignatures!: number;

  @Field(() => Int, { description: 'Cosignatures required (CREDGATE_WITNESS_QUORUM); 0 when the deployment has no witnesses.' })
  witnessQuorum!: number;
}

@ObjectType({ description: 'An RFC 9162 inclusion proof (REST: GET /ledger/{logId}/proof/inclusion).' })
export class LedgerInclusionProof {
  @Field(() => String)
  logId!: string;

  @Field(() => Int)
  leafIndex!: number;

  @Field(() => Int)
  treeSize!: number;

  @Field(() => String, { description: 'base64 leaf hash at leafIndex.' })
  leafHash!: string;

  @Field(() => [String], { description: 'base64 hashes, lowest first.' })
  proof!: string[];

  @Field(() => LedgerCheckpoint, { description: 'The current signed head (treeSize <= checkpoint.treeSize).' })
  checkpoint!: LedgerCheckpoint;
}

@ObjectType({ description: 'An RFC 9162 consistency proof (REST: GET /ledger/{logId}/proof/consistency).' })
export class LedgerConsistencyProof {
  @Field(() => String)
  logId!: string;

  @Field(() => Int)
  fromSize!: number;

  @Field(() => Int)
  toSize!: number;

  @Field(() => [String], { description: 'base64 hashes.' })
  proof!: string[];

  @Field(() => LedgerCheckpoint)
  checkpoint!: LedgerCheckpoint;
}

@ObjectType({ description: 'A ledger entry with its inclusion proof in the current head (REST: GET /ledger/{logId}/entries/{entryHash}).' })
export class LedgerEntryProof {
  @Field(() => String)
  logId!: string;

  @Field(() => String, { description: 'Lowercase hex SHA-256 of the anchored record.' })
  entryHash!: string;

  @Field(() => Int)
  leafIndex!: number;

  @Field(() => String)
  kind!: string;

  @Field(() => String)
  ref!: string;

  @Field(() => String, { description: 'base64 RFC 9162 leaf hash: SHA-256(0x00 || entryHash).' })
  leafHash!: string;

  @Field(() => Int, { description: 'Equals checkpoint.treeSize.' })
  treeSize!: number;

  @Field(() => [String], { description: 'base64 inclusion proof hashes, lowest first.' })
  proof!: string[];

  @Field(() => LedgerCheckpoint)
  checkpoint!: LedgerCheckpoint;
}

@ObjectType({ description: 'Leaf hashes of [start, end) (REST: GET /ledger/{logId}/leaves).' })
export class LedgerLeaves {
  @Field(() => String)
  logId!: string;

  @Field(() => Int)
  start!: number;

  @Field(() => Int)
  end!: number;

  @Field(() => [String], { description: 'base64 leaf hashes in index order.' })
  leafHashes!: string[];
}
