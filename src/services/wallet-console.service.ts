import type { Actor } from '../domain/tenancy/actor';
import type { Oid4vciIssuerServices } from '../oid4vc/issuer';
import { offerQrCodes } from '../oid4vc/issuer/qr';
import type { Oid4vpVerifierService } from '../oid4vc/verifier';

/** One credential configuration as the operator page lists it (contracts/wallet-console.ts). */
export interface OfferableConfiguration {
  readonly id: string;
  readonly format: string;
  readonly name: string;
  readonly vct: string | null;
  readonly doctype: string | null;
  readonly claims: string[][];
}

export interface OfferableConfigurations {
  readonly credentialIssuer: string;
  readonly configurations: OfferableConfiguration[];
}

export interface PresentationRequestQr {
  readonly authorizationRequest: string;
  readonly qrSvg: string;
  readonly qrPng: string;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The configurations of OpenID4VCI issuer metadata as a list the page can show: its name, and the
 * vct / doctype and claim paths a DCQL query asking for it names. Read from the metadata the issuer
 * publishes (not re-derived), so the page offers exactly what a wallet will be told exists.
 */
export function offerableConfigurations(metadata: Record<string, unknown>): OfferableConfiguration[] {
  const supported = metadata['credential_configurations_supported'];
  if (!isRecord(supported)) return [];
  return Object.entries(supported).flatMap(([id, c]) => {
    if (!isRecord(c) || typeof c['format'] !== 'string') return [];
    const described = isRecord(c['credential_metadata']) ? c['credential_metadata'] : {};
    const first = Array.isArray(described['display']) && isRecord(described['display'][0]) ? described['display'][0] : {};
    const claims = (Array.isArray(described['claims']) ? described['claims'] : [])
      .map((cl) => (isRecord(cl) && Array.isArray(cl['path']) ? cl['path'].filter((p): p is string => typeof p === 'string') : []))
      .filter((p) => p.length > 0);
    return [{
      id,
      format: c['format'],
      name: typeof first['name'] === 'string' ? first['name'] : id,
      vct: typeof c['vct'] === 'string' ? c['vct'] : null,
      doctype: typeof c['doctype'] === 'string' ? c['doctype'] : null,
      claims,
    }];
  });
}

/**
 * The two reads of the operator page (/wallets) that the issuer-admin and relying-party services do
 * not answer themselves; REST (rest/wallet-console) and GraphQL (WalletConsoleResolver) call these.
 */
export class WalletConsoleService {
  constructor(
    private readonly issuer: Pick<Oid4vciIssuerServices, 'issuerMetadata'>,
    private readonly verifier: Pick<Oid4vpVerifierService, 'get'>,
  ) {}

  /** The caller's tenant's credential issuer and what it can offer (the page does not know the tenant slug). */
  async configurations(actor: Actor): Promise<OfferableConfigurations> {
    const metadata = await this.issuer.issuerMetadata(actor.tenantSlug);
    return { credentialIssuer: String(metadata['credential_issuer'] ?? ''), configurations: offerableConfigurations(metadata) };
  }

  /** A presentation request of the caller's tenant as QR codes of its link (NOT_FOUND otherwise). */
  async presentationRequestQr(actor: Actor, requestId: string): Promise<PresentationRequestQr> {
    const request = await this.verifier.get(actor, requestId);
    const qr = await offerQrCodes(request.authorizationRequest);
    return { authorizationRequest: request.authorizationRequest, qrSvg: qr.svg, qrPng: qr.png };
  }
}
