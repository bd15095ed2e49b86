import type { DidDocument, VerificationMethod, VerificationRelationship } from '../../domain/dids/did-document.types';
import { parseServiceDid } from '../../domain/dids/service-did';
import { VERIFICATION_RELATIONSHIPS } from './did-document';
import type { MethodResolver, ServiceDidLookup } from './types';

/** What the adapter needs of DidsService: its resolution from the records, with its AppErrors. */
export interface ServiceDidRecords {
  resolveDocument(did: string): Promise<DidDocument>;
}

/** `did#frag` → `other#frag` for a DID URL under `from`; anything else unchanged. */
function moved(url: string, from: string, to: string): string {
  return url === from ? to : url.startsWith(`${from}#`) ? `${to}${url.slice(from.length)}` : url;
}

/**
 * The record's document as the Family A DID `familyA` (`did:m:n:id;m:n:fid=F`): issuers name
 * themselves so and sign as `familyA#did-root-key`, so its document has that id and controls its
 * methods itself (W3C verifiers require the method's controller to be the issuer). DidsService has
 * already checked that F is the record's ledger file.
 */
function asFamilyA(doc: DidDocument, familyA: string): DidDocument {
  const re = (url: string): string => moved(url, doc.id, familyA);
  const rel = (list: readonly VerificationRelationship[] | undefined): VerificationRelationship[] | undefined =>
    list?.map((e) => (typeof e === 'string' ? re(e) : { ...e, id: re(e.id), controller: re(e.controller) }));
  const out: Record<string, unknown> = { ...doc, id: familyA, alsoKnownAs: [doc.id, ...(doc.alsoKnownAs ?? []).filter((a) => a !== familyA)] };
  if (doc.controller !== undefined) out.controller = Array.isArray(doc.controller) ? doc.controller.map(re) : re(doc.controller);
  if (doc.verificationMethod) out.verificationMethod = doc.verificationMethod.map((m) => ({ ...m, id: re(m.id), controller: re(m.controller) }));
  for (const r of VERIFICATION_RELATIONSHIPS) if (doc[r] !== undefined) out[r] = rel(doc[r]);
  return out as unknown as DidDocument;
}

/**
 * The record's document (id = the plain DID) with its methods also under the stored-document id
 * `did:m:n:id:F`, the name Family B proofs use (`…:F#keys-1`) on behalf of the plain-DID issuer:
 * the same keys, controlled by the plain DID and authorized in its own relationships, so the
 * method's controller is the issuer, as W3C verifiers require. Whatever spelling is resolved, the
 * document is the same (as GET /resolver answers it).
 */
function withDocumentIdAliases(doc: DidDocument): DidDocument {
  const documentId = (doc.alsoKnownAs ?? []).find((aka) => {
    const ref = typeof aka === 'string' && !aka.includes(';') ? parseServiceDid(aka) : undefined;
    return ref !== undefined && ref.did === doc.id && ref.ledgerFileId !== undefined;
  });
  if (!documentId || !doc.verificationMethod) return doc;
  const aliases: VerificationMethod[] = doc.verificationMethod
    .filter((m) => m.id.startsWith(`${doc.id}#`))
    .map((m) => ({ ...m, id: moved(m.id, doc.id, documentId) }));
  const out: Record<string, unknown> = { ...doc, verificationMethod: [...doc.verificationMethod, ...aliases] };
  for (const r of VERIFICATION_RELATIONSHIPS) {
    const list = doc[r];
    if (!list) continue;
    const extra = aliases.filter((a) => list.some((e) => (typeof e === 'string' ? e : e.id) === moved(a.id, documentId, doc.id))).map((a) => a.id);
    out[r] = [...list, ...extra];
  }
  return out as unknown as DidDocument;
}

/**
 * The composition root's adapter: the service's own DID method resolved by DidsService (records,
 * deactivation, the three spellings of a service DID), so src/vc never reads the database itself.
 * The records answer every spelling with the plain DID's document; the adapter presents it so the
 * seed's own credentials verify as W3C proofs (docs/API.md "Supported proof suites"): a Family A
 * DID gets its own document, the plain and stored-document spellings one document with both names
 * of each method. Only the view changes: keys and deactivation are the records'.
 */
export function serviceDidLookup(records: ServiceDidRecords, method: string): ServiceDidLookup {
  return {
    method,
    resolve: async (did) => {
      const doc = await records.resolveDocument(did);
      const familyA = did.includes(';') && parseServiceDid(did)?.did === doc.id;
      return familyA ? asFamilyA(doc, did) : withDocumentIdAliases(doc);
    },
  };
}

export function serviceMethodResolver(lookup: ServiceDidLookup): MethodResolver {
  // Not cached here: DidsService has its own record cache, and a deactivation must show at once.
  return { method: lookup.method, name: 'service', remote: false, resolve: (did) => lookup.resolve(did) };
}
