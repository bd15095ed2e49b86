/**
 * SD-JWT VC Type Metadata (draft-ietf-oauth-sd-jwt-vc §6): the document a `vct` URL resolves
 * to, so a wallet can label a credential and its claims. Derived from what the issuer already
 * describes (a Family B template's name, description and attributes). Both `locale` (current
 * drafts) and `lang` (earlier drafts, still read by wallets) are given.
 */
export interface TypeMetadata {
  readonly vct: string;
  readonly name: string;
  readonly description?: string;
  readonly display: readonly { locale: string; lang: string; name: string; description?: string }[];
  readonly claims: readonly {
    path: readonly string[];
    display: readonly { locale: string; lang: string; label: string; description?: string }[];
    sd: 'always' | 'allowed' | 'never';
    mandatory?: boolean;
  }[];
}

export interface TypeDescription {
  readonly name: string;
  readonly description?: string;
  readonly attributes: readonly { readonly name: string; readonly description?: string; readonly required?: boolean }[];
}

const LOCALE = 'en';

export function buildTypeMetadata(vct: string, type: TypeDescription): TypeMetadata {
  const text = (d: string | undefined) => (d ? { description: d } : {});
  return {
    vct,
    name: type.name,
    ...text(type.description),
    display: [{ locale: LOCALE, lang: LOCALE, name: type.name, ...text(type.description) }],
    // Every top-level claim is issued selectively disclosable (issueSdJwtVc's default).
    claims: type.attributes.map((a) => ({
      path: [a.name],
      display: [{ locale: LOCALE, lang: LOCALE, label: a.name, ...text(a.description) }],
      sd: 'allowed' as const,
      ...(a.required ? { mandatory: true } : {}),
    })),
  };
}
