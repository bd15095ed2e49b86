/**
 * The associated data a Family A credential's sealed subject is bound to (`SecretBox.seal`): the
 * credential service seals and opens with it, key rotation re-seals with it, and tenant export and
 * import open and seal with it. Kept in the domain so key custody (src/kms) need not import a service.
 */
export const sealedSubjectContext = (credentialId: string): string => `issued-credential|${credentialId}`;
