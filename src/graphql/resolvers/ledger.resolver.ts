import { Arg, Authorized, Ctx, Int, Query, Resolver } from 'type-graphql';
import type { LedgerService } from '../../services/ledger.service';
import type { GraphQLContext } from '../context';
import { LedgerAnchorStatus } from '../types/anchor.type';
import { LedgerCheckpoint, LedgerConsistencyProof, LedgerEntryProof, LedgerInclusionProof, LedgerLeaves } from '../types/ledger.type';

/** Transparency logs: readable by every authenticated caller of any tenant (see LedgerService). */
@Resolver()
export class LedgerResolver {
  constructor(private readonly ledger: LedgerService) {}

  @Authorized()
  @Query(() => LedgerCheckpoint, { description: 'REST: GET /ledger/{logId}/checkpoint.' })
  ledgerCheckpoint(@Arg('logId', () => String) logId: string, @Ctx() ctx: GraphQLContext): Promise<LedgerCheckpoint> {
    return this.ledger.checkpoint(ctx.actor, logId);
  }

  @Authorized()
  @Query(() => LedgerInclusionProof, { description: 'REST: GET /ledger/{logId}/proof/inclusion. treeSize defaults to the current head.' })
  ledgerInclusionProof(
    @Arg('logId', () => String) logId: string,
    @Arg('leafIndex', () => Int) leafIndex: number,
    @Arg('treeSize', () => Int, { nullable: true }) treeSize: number | null,
    @Ctx() ctx: GraphQLContext,
  ): Promise<LedgerInclusionProof> {
    return this.ledger.inclusionProof(ctx.actor, logId, leafIndex, treeSize);
  }

  @Authorized()
  @Query(() => LedgerConsistencyProof, { description: 'REST: GET /ledger/{logId}/proof/consistency. to defaults to the current head.' })
  ledgerConsistencyProof(
    @Arg('logId', () => String) logId: string,
    @Arg('from', () => Int) from: number,
    @Arg('to', () => Int, { nullable: true }) to: number | null,
    @Ctx() ctx: GraphQLContext,
  ): Promise<LedgerConsistencyProof> {
    return this.ledger.consistencyProof(ctx.actor, logId, from, to);
  }

  @Authorized()
  @Query(() => LedgerEntryProof, { description: 'REST: GET /ledger/{logId}/entries/{entryHash}. entryHash is 64 hex digits.' })
  ledgerEntry(
    @Arg('logId', () => String) logId: string,
    @Arg('entryHash', () => String) entryHash: string,
    @Ctx() ctx: GraphQLContext,
  ): Promise<LedgerEntryProof> {
    return this.ledger.entry(ctx.actor, logId, entryHash);
  }

  @Authorized()
  @Query(() => LedgerAnchorStatus, { description: 'REST: GET /ledger/{logId}/anchors/{treeSize}. Anchoring of the signed head of that size; the receipt is re-checked on the ledger.' })
  ledgerAnchor(
    @Arg('logId', () => String) logId: string,
    @Arg('treeSize', () => Int) treeSize: number,
    @Ctx() ctx: GraphQLContext,
  ): Promise<LedgerAnchorStatus> {
    return this.ledger.anchor(ctx.actor, logId, treeSize);
  }

  @Authorized()
  @Query(() => LedgerLeaves, { description: 'REST: GET /ledger/{logId}/leaves. At most 10 000 leaves of [start, end).' })
  ledgerLeaves(
    @Arg('logId', () => String) logId: string,
    @Arg('start', () => Int) start: number,
    @Arg('end', () => Int) end: number,
    @Ctx() ctx: GraphQLContext,
  ): Promise<LedgerLeaves> {
    return this.ledger.leaves(ctx.actor, logId, start, end);
  }
}
