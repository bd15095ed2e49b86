/**
 * What one root field costs against CREDGATE_GRAPHQL_MAX_COST. Every selected field below the
 * root costs 1. The weights follow measured work: signature checks, JSON-LD canonicalisation,
 * face inference and key unsealing dominate; plain reads are cheap.
 */
export const DEFAULT_QUERY_FIELD_COST = 10;
export const DEFAULT_MUTATION_FIELD_COST = 20;
export const NESTED_FIELD_COST = 1;

export const ROOT_FIELD_COSTS: Readonly<Record<string, number>> = {
  // Face inference (worker pool, MBs of pixels).
  'Mutation.createFaceTemplates': 500,
  'Mutation.compareFaces': 500,
  // Canonicalisation and signature checks over caller-supplied documents.
  'Query.verifyCredential': 300,
  'Query.verifyPresentation': 300,
  'Query.verifyTemplateCredential': 300,
  'Query.decryptCredential': 200,
  'Query.verifyZkpToken': 100,
  'Query.verifySignature': 50,
  // W3C verification: the same work, plus outbound fetches bounded by the per-request budget.
  'Query.vcVerifyCredential': 300,
  'Query.vcVerifyPresentation': 300,
  // bbs-2023 derivation: canonicalisation and a BBS proof over caller-supplied documents, in the BBS worker pool.
  'Mutation.vcDeriveCredential': 300,
  // Issuance: unseal a key, canonicalise, sign, append to the log.
  'Mutation.issueCredential': 100,
  'Mutation.reissueCredential': 100,
  'Mutation.revokeCredential': 100,
  'Mutation.issueTemplateCredential': 100,
  'Mutation.vcIssueCredential': 100,
  'Mutation.vcUpdateCredentialStatus': 100,
  'Mutation.revokeTemplateCredential': 100,
  'Mutation.createPresentation': 100,
  'Mutation.createZkpCertificate': 100,
  'Mutation.createZkpToken': 100,
  'Mutation.createSignature': 50,
  'Mutation.signUserData': 50,
  // An OpenID4VCI offer renders two QR codes (SVG and PNG) and reads the issuer's configurations.
  'Mutation.createCredentialOffer': 100,
  // Ledger proofs walk the tree.
  'Query.ledgerLeaves': 50,
  'Query.ledgerConsistencyProof': 50,
  'Query.ledgerInclusionProof': 50,
  // Re-reads the anchor receipt from the external ledger (RPC round trips).
  'Query.ledgerAnchor': 50,
};

export function rootFieldCost(rootType: 'Query' | 'Mutation' | 'Subscription', field: string): number {
  return ROOT_FIELD_COSTS[`${rootType}.${field}`] ?? (rootType === 'Query' ? DEFAULT_QUERY_FIELD_COST : DEFAULT_MUTATION_FIELD_COST);
}
