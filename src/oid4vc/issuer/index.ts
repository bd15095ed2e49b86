/** The OpenID4VCI 1.0 issuer: protocol use-cases over oid4vc-ts, with our storage, crypto and formats. */
import { AuthorizationService } from './authorization.service';
import { type IssuerDeps, IssuerRuntime } from './context';
import { CredentialService } from './credential.service';
import { credentialIssuerMetadata, authorizationServerMetadata } from './metadata';
import { CredentialOffersService } from './offers.service';
import { IssuedCredentialsService } from './issued-credentials.service';
import { TokenService } from './token.service';
import { AppError } from '../../errors';

export interface Oid4vciIssuerServices {
  readonly offers: CredentialOffersService;
  readonly tokens: TokenService;
  readonly authorization: AuthorizationService;
  readonly credentials: CredentialService;
  /** The credentials each offer produced, listed and revoked one by one. */
  readonly issuedCredentials: IssuedCredentialsService;
  issuerMetadata(slug: string): Promise<Record<string, unknown>>;
  authorizationServerMetadata(slug: string): Promise<Record<string, unknown>>;
  /** SD-JWT VC Type Metadata behind a configuration's `vct`. */
  typeMetadata(slug: string, configurationId: string): Promise<Record<string, unknown>>;
}

export function createOid4vciIssuer(deps: IssuerDeps): Oid4vciIssuerServices {
  const rt = new IssuerRuntime(deps);
  return {
    offers: new CredentialOffersService(rt),
    tokens: new TokenService(rt),
    authorization: new AuthorizationService(rt),
    credentials: new CredentialService(rt),
    issuedCredentials: new IssuedCredentialsService(rt),
    issuerMetadata: async (slug) => credentialIssuerMetadata(rt, await rt.tenant(slug)),
    authorizationServerMetadata: async (slug) => authorizationServerMetadata(rt, await rt.tenant(slug)),
    async typeMetadata(slug, configurationId) {
      const t = await rt.tenant(slug);
      const c = (await rt.configurations(t)).find((x) => x.id === configurationId && typeof x.metadata['vct'] === 'string');
      const document = c ? rt.format(c.format)?.typeMetadata?.(c.metadata['vct'] as string, c.source) : undefined;
      if (!c || !document) throw new AppError('NOT_FOUND', 'no such credential type');
      return document;
    },
  };
}

export type { IssuerDeps } from './context';
export { ISSUER_PATH } from './context';
export { Oid4vciError, isOid4vciError } from './errors';
export type { CreateOfferInput, CreatedOffer, OfferView, OfferPage, OfferGrant } from './offers.service';
export type { CredentialOffersService } from './offers.service';
export type { IssuedCredentialsService, IssuedCredentialView } from './issued-credentials.service';
export type { CredentialSource, CredentialSources, Oid4vciCredentialFormat } from './configurations';
export { DEFAULT_OID4VCI_SETTINGS, type Oid4vciSettings } from './settings';
export { noUserAuthentication, loginHintAuthenticator, type UserAuthenticator } from './user-authenticator';
export { oid4vciFormatsFrom, oid4vciIssuerActor } from './registry-formats';
export { credentialSources } from './sources';
export type { IssuerSigner, IssuerSignerSource } from './signer';
