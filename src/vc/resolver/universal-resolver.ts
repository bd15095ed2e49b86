import { AppError } from '../../errors';
import { type FetchPolicy, FetchError, guardedGetJson } from '../net/guarded-fetch';
import { checkRemoteDocument } from './did-document';
import { resolutionError } from './fetch-errors';

const MEDIA_TYPES = ['application/ld+json', 'application/json', 'application/did+ld+json', 'application/did+json', 'application/did-resolution+json'];

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * A Universal Resolver (DIF; `GET {url}/1.0/identifiers/{did}`), asked for methods no local
 * resolver handles. Its URL is the operator's choice, so it may be http:// and on a private
 * network (a sidecar is the usual deployment); it gets the timeout and size cap but no redirects,
 * so that exemption never extends to another host. The DID was checked against DID Core syntax
 * before, so it carries no `/`, `?` or `#` and cannot change the path asked.
 */
export function universalResolver(baseUrl: string, policy: FetchPolicy): (did: string) => Promise<ReturnType<typeof checkRemoteDocument>> {
  const base = baseUrl.replace(/\/+$/, '');
  const uniPolicy: FetchPolicy = { ...policy, allowHttp: true, allowPrivate: true, maxRedirects: 0 };
  return async (did) => {
    let json: Record<string, unknown>;
    try {
      ({ json } = await guardedGetJson(`${base}/1.0/identifiers/${did}`, uniPolicy, {
        accept: 'application/ld+json;profile="https://w3id.org/did-resolution", application/json;q=0.5',
        contentTypes: MEDIA_TYPES,
      }));
    } catch (e) {
      if (e instanceof FetchError && e.kind === 'http-status' && e.status !== undefined) {
        if (e.status === 400) throw new AppError('INVALID_DID', `${did} is not a valid DID (Universal Resolver)`);
        if (e.status === 406 || e.status === 501) throw new AppError('UNSUPPORTED_DID_METHOD', `the DID method of ${did} is not supported`);
        if (e.status === 404 || e.status === 410) throw new AppError('DID_NOT_FOUND', `${did} was not found`);
        throw new AppError('SERVICE_UNAVAILABLE', `${did} could not be resolved: the Universal Resolver answered HTTP ${e.status}`);
      }
      throw resolutionError(did, e);
    }
    // A resolution result carries the document under didDocument; some deployments answer the document itself.
    const meta = isObject(json.didDocumentMetadata) ? json.didDocumentMetadata : {};
    if (meta.deactivated === true) throw new AppError('DID_NOT_FOUND', `${did} is deactivated`);
    const doc = 'didDocument' in json || 'didResolutionMetadata' in json ? json.didDocument : json;
    if (!isObject(doc)) throw new AppError('DID_NOT_FOUND', `${did} was not found`);
    return checkRemoteDocument(did, doc);
  };
}
