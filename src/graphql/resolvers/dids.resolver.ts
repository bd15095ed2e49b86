import { Arg, Authorized, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';
import type { DidRecordDocument as DidRecordView } from '../../domain/dids/service-did-documents';
import type { DidsService } from '../../services/dids.service';
import type { UsersService } from '../../services/users.service';
import type { GraphQLContext } from '../context';
import { CreateDidInput } from '../types/did.input';
import { CreateDidPayload, DidRecordDocument } from '../types/did.type';
import { DidResolutionResult } from '../types/resolution.type';

/** GraphQL names cannot start with `__`, so `_id`/`__v` become `recordId`/`version`. */
function toGraphql(d: DidRecordView): DidRecordDocument {
  return {
    // GraphQL has no absent member: what a did:key document leaves out is null here.
    recordId: d._id ?? null,
    id: d.id,
    topicId: d.topicId ?? null,
    templateTopicId: d.templateTopicId ?? null,
    publicKeys: d.publicKey.map(({ _id, ...k }) => ({ ...k, recordId: _id })),
    authentication: [...d.authentication],
    service: [...d.service],
    created: d.created ?? null,
    updated: d.updated ?? null,
    ledgerFileId: d.ledgerFileId ?? null,
    version: d.__v,
  };
}

@Resolver()
export class DidsResolver {
  constructor(
    private readonly dids: DidsService,
    private readonly users: UsersService,
  ) {}

  @Authorized('issuer', 'holder')
  @Mutation(() => CreateDidPayload, { description: 'REST: POST /dids.' })
  async createDid(@Arg('input', () => CreateDidInput) input: CreateDidInput, @Ctx() ctx: GraphQLContext): Promise<CreateDidPayload> {
    const { document, created } = await this.dids.createDid(ctx.actor, input);
    return { document: toGraphql(document), created };
  }

  @Authorized()
  @Query(() => DidRecordDocument, { description: "REST: GET /dids (did header) and GET /dids/{did}. The caller's own DIDs only." })
  async did(@Arg('did', () => String) did: string, @Ctx() ctx: GraphQLContext): Promise<DidRecordDocument> {
    return toGraphql(await this.dids.getDidDocument(ctx.actor, did));
  }

  @Authorized()
  @Query(() => GraphQLJSONObject, { description: 'REST: GET /resolve/{did}. A W3C DID Core document.' })
  async didDocument(@Arg('did', () => String) did: string): Promise<Record<string, unknown>> {
    return { ...(await this.dids.resolveDocument(did)) };
  }

  @Authorized()
  @Query(() => DidResolutionResult, { description: 'REST: GET /1.0/identifiers/{did}. Failures are reported in didResolutionMetadata.error.' })
  async didResolution(@Arg('did', () => String) did: string): Promise<DidResolutionResult> {
    const r = await this.dids.resolve(did);
    return {
      didDocument: r.didDocument ? { ...r.didDocument } : null,
      didResolutionMetadata: { ...r.didResolutionMetadata },
      didDocumentMetadata: { ...r.didDocumentMetadata },
    };
  }

  @Authorized('holder', 'issuer')
  @Mutation(() => String, { description: 'REST: GET /user/did. The Family A DID of an Ed25519 public key (base64).' })
  registerUserDid(@Arg('publicKey', () => String) publicKey: string, @Ctx() ctx: GraphQLContext): Promise<string> {
    return this.users.userDid(ctx.actor, publicKey);
  }
}
