import { Type } from '@sinclair/typebox';
import { pathParam } from './common';
import { operationGroup } from './operation';

/**
 * The operator page at /wallets (docs/WALLETS.md, "The operator page"): the page itself (no API key:
 * it holds nothing of a tenant, the key is entered in its bar like GraphiQL's) and the two reads it
 * needs that the issuer-admin and relying-party APIs do not answer: which credential configurations
 * the caller's tenant can offer, and a QR code of a presentation request's link.
 */
const op = operationGroup('service', 'Operator page');

const CONFIG_ID = 'template.8c0c7a4e-3f5e-4a57-9f9c-0c1d2e3f4a5b.sd_jwt';
const REQUEST_ID = '0b8f6a3e-2c4d-4e5f-8a9b-1c2d3e4f5a6b';

export const walletConsole = op('get', '/wallets', 'walletConsole', {
  summary: 'The operator page: offer credentials to wallets and ask wallets for presentations by QR code (HTML, served offline)',
  responses: { 200: { description: 'the page (Content-Security-Policy: scripts, styles and requests to this host only)', contentType: 'text/html', schema: Type.String(), example: '<!doctype html>…' } },
});

const Configuration = Type.Object(
  {
    id: Type.String({ description: 'the credential configuration id (createCredentialOffer takes it)' }),
    format: Type.String(),
    name: Type.String(),
    vct: Type.Union([Type.String(), Type.Null()], { description: 'dc+sd-jwt: the type a DCQL query asks for' }),
    doctype: Type.Union([Type.String(), Type.Null()], { description: 'mso_mdoc: the doctype' }),
    claims: Type.Array(Type.Array(Type.String()), { description: 'claim paths, as DCQL names them' }),
  },
  { title: 'OfferableConfiguration' },
);

export const walletConsoleConfigurations = op('get', '/wallets/api/configurations', 'walletConsoleConfigurations', {
  summary: "The credential configurations the caller's tenant can offer (its OpenID4VCI issuer metadata, as a list)",
  scopes: ['issuer'],
  responses: {
    200: {
      description: 'the credential issuer and its configurations',
      schema: Type.Object({ credentialIssuer: Type.String(), configurations: Type.Array(Configuration) }),
      example: {
        credentialIssuer: 'https://credgate.example.com/oid4vc/acme',
        configurations: [{ id: CONFIG_ID, format: 'dc+sd-jwt', name: 'Employee', vct: `https://credgate.example.com/oid4vc/acme/vct/${CONFIG_ID}`, doctype: null, claims: [['name'], ['email']] }],
      },
    },
  },
});

export const walletConsoleRequestQr = op('get', '/wallets/api/presentation-requests/:requestId/qr', 'walletConsolePresentationRequestQr', {
  summary: "A presentation request's openid4vp:// link as QR codes (SVG, PNG data URL), for a wallet's camera",
  scopes: ['verifier'],
  pathParams: [pathParam('requestId', 'the request id', REQUEST_ID)],
  responses: {
    200: {
      description: 'the link and its QR codes',
      schema: Type.Object({ authorizationRequest: Type.String(), qrSvg: Type.String(), qrPng: Type.String() }),
      example: { authorizationRequest: `openid4vp://?client_id=x509_san_dns%3Acredgate.example&request_uri=https%3A%2F%2Fcredgate.example%2Foid4vp%2Frequest-objects%2F${REQUEST_ID}`, qrSvg: '<svg xmlns="http://www.w3.org/2000/svg"></svg>', qrPng: 'data:image/png;base64,iVBORw0KGgo=' },
    },
  },
  errors: [404],
});
