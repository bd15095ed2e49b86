/**
 * Every way a DeviceResponse can lie, each performed on a genuine one: the verifier answers
 * verified: false with the problem's code (and only that problem), or INVALID_INPUT for bytes that
 * are not a DeviceResponse at all — never an exception from deep inside.
 */
import { DataItem, cborDecode, cborEncode } from '@owf/mdoc';
import { createDeviceResponse, issueMdoc, jwkThumbprint, mdocNamespacesFromAttributes, verifyDeviceResponse, type MdocSigner } from '../../../src/formats/mdoc';
import { DEFAULT_VERIFICATION_LIMITS, RequestBudget, withBudget } from '../../../src/vc/net/request-budget';
import { anchorsTrust, deviceKey, testIssuer, withChain, type TestIssuer } from './support';

const PID = 'eu.europa.ec.eudi.pid.1';
const NOW = new Date('2026-06-01T12:00:00Z');
const VALID_FROM = new Date('2026-01-15T00:00:00Z');
const VALID_UNTIL = new Date('2027-01-15T00:00:00Z');
const REQUEST = { clientId: 'x509_san_dns:verifier.example', nonce: 'nonce-of-this-request', responseUri: 'https://verifier.example/oid4vp/response' };
const ATTRIBUTES = {
  family_name: 'Mustermann',
  given_name: 'Erika',
  birth_date: '1964-08-12',
  birth_place: 'Berlin',
  nationality: ['DE'],
  expiry_date: '2031-01-01',
  issuing_authority: 'Bundesdruckerei',
  issuing_country: 'DE',
  age_over_18: true,
};
const DISCLOSE = { [PID]: ['given_name', 'family_name', 'age_over_18'] };

type CborMap = Map<unknown, unknown>;

let issuer: TestIssuer;
let holder: ReturnType<typeof deviceKey>;
beforeAll(async () => {
  issuer = await testIssuer();
  holder = deviceKey();
});

function issue(signer: MdocSigner = issuer.signer, validity = { validFrom: VALID_FROM, validUntil: VALID_UNTIL }): Promise<Uint8Array> {
  return issueMdoc({ docType: PID, namespaces: mdocNamespacesFromAttributes(PID, ATTRIBUTES), signer, deviceKeyJwk: holder.publicJwk, ...validity });
}

async function present(overrides: Partial<Parameters<typeof createDeviceResponse>[0]> = {}): Promise<Uint8Array> {
  return createDeviceResponse({ issuerSigned: await issue(), holder, request: DISCLOSE, ...REQUEST, ...overrides });
}

const verify = (response: Uint8Array, overrides: Partial<Parameters<typeof verifyDeviceResponse>[1]> = {}) =>
  verifyDeviceResponse(response, { ...REQUEST, trust: anchorsTrust([issuer.rootDer]), now: NOW, ...overrides });

const codes = async (response: Uint8Array, overrides: Partial<Parameters<typeof verifyDeviceResponse>[1]> = {}): Promise<string[]> => {
  const result = await verify(response, overrides);
  expect(result.verified).toBe(result.problems.length === 0);
  return result.problems.map((p) => p.code);
};

/** Decodes a DeviceResponse, lets `edit` change its first document, and encodes it again. */
function tamper(response: Uint8Array, edit: (doc: CborMap, root: CborMap) => void): Uint8Array {
  const root = cborDecode<CborMap>(response, { unwrapTopLevelDataItem: false });
  const doc = (root.get('documents') as CborMap[])[0] as CborMap;
  edit(doc, root);
  return cborEncode(root);
}

const issuerItems = (doc: CborMap): DataItem[] => ((doc.get('issuerSigned') as CborMap).get('nameSpaces') as CborMap).get(PID) as DataItem[];
const issuerAuth = (doc: CborMap): unknown[] => (doc.get('issuerSigned') as CborMap).get('issuerAuth') as unknown[];

/** Rewrites one disclosed IssuerSignedItem (keeping its digest ID unless told otherwise). */
function editItem(doc: CborMap, element: string, change: (item: CborMap) => void): void {
  const items = issuerItems(doc);
  const index = items.findIndex((i) => (i.data as CborMap).get('elementIdentifier') === element);
  const item = new Map(items[index]?.data as CborMap);
  change(item);
  items[index] = DataItem.fromData(item);
}

describe('mdoc DeviceResponse tampering', () => {
  it('the untouched response verifies (the baseline every attack below starts from)', async () => {
    expect(await codes(await present())).toEqual([]);
  });

  it('a changed element value no longer matches its digest, and is not reported as a claim', async () => {
    const forged = tamper(await present(), (doc) => editItem(doc, 'given_name', (i) => i.set('elementValue', 'Mallory')));
    const result = await verify(forged);
    expect(result.problems.map((p) => p.code)).toEqual(['ELEMENT_DIGEST_MISMATCH']);
    expect(result.documents[0]?.claims[PID]).not.toHaveProperty('given_name');
  });

  it('an element the MSO has no digest for (unsigned digest ID, or an unsigned namespace) is refused', async () => {
    const unsignedId = tamper(await present(), (doc) => editItem(doc, 'age_over_18', (i) => i.set('digestID', 4_000_000)));
    expect(await codes(unsignedId)).toEqual(['ELEMENT_DIGEST_MISSING']);
    const extraNamespace = tamper(await present(), (doc) => {
      const nameSpaces = (doc.get('issuerSigned') as CborMap).get('nameSpaces') as CborMap;
      nameSpaces.set('org.example.forged', [DataItem.fromData(new Map<string, unknown>([['digestID', 0], ['random', new Uint8Array(32)], ['elementIdentifier', 'is_admin'], ['elementValue', true]]))]);
    });
    expect(await codes(extraNamespace)).toEqual(['ELEMENT_DIGEST_MISSING']);
  });

  it('the same element disclosed twice is refused', async () => {
    const doubled = tamper(await present(), (doc) => {
      const items = issuerItems(doc);
      items.push(items[0] as DataItem);
    });
    expect(await codes(doubled)).toEqual(['DUPLICATE_ELEMENT']);
  });

  it('an MSO signed under a certificate that leads to no trust anchor is refused, and its claims withheld', async () => {
    const stranger = await testIssuer('Stranger');
    const response = await createDeviceResponse({ issuerSigned: await issue(stranger.signer), holder, request: DISCLOSE, ...REQUEST });
    const result = await verify(response);
    expect(result.problems.map((p) => p.code)).toEqual(['ISSUER_UNTRUSTED']);
    expect(result.documents[0]?.claims).toEqual({});
  });

  it('an MSO signed by another key behind a trusted issuer\'s certificate chain is refused', async () => {
    const attacker = await testIssuer('Attacker');
    const borrowed = withChain(attacker.signer, issuer.signer.x5c ?? []);
    const response = await createDeviceResponse({ issuerSigned: await issue(borrowed), holder, request: DISCLOSE, ...REQUEST });
    const result = await verify(response);
    expect(result.problems.map((p) => p.code)).toEqual(['ISSUER_SIGNATURE_INVALID']);
    expect(result.documents[0]?.claims).toEqual({});
  });

  it('an MSO edited after signing (validity extended) is refused', async () => {
    const extended = tamper(await present(), (doc) => {
      const auth = issuerAuth(doc);
      const mso = new Map((cborDecode<DataItem>(auth[2] as Uint8Array, { unwrapTopLevelDataItem: false }).data as CborMap));
      const validity = new Map(mso.get('validityInfo') as CborMap);
      validity.set('validUntil', new Date('2099-01-01T00:00:00Z'));
      mso.set('validityInfo', validity);
      auth[2] = cborEncode(DataItem.fromData(mso));
    });
    // Past the signed validUntil, only the broken signature stands between the forgery and a pass.
    const result = await verify(extended, { now: new Date('2028-01-01T00:00:00Z') });
    expect(result.problems.map((p) => p.code)).toEqual(['ISSUER_SIGNATURE_INVALID']);
    expect(result.verified).toBe(false);
    expect(result.documents[0]?.claims).toEqual({});
  });

  it('an mDL whose issuing_country is not its signer certificate\'s country is refused (ISO 18013-5)', async () => {
    const mdl = (country: string): Promise<Uint8Array> =>
      issueMdoc({
        docType: 'org.iso.18013.5.1.mDL',
        namespaces: mdocNamespacesFromAttributes('org.iso.18013.5.1.mDL', {
          family_name: 'Doe', given_name: 'Jane', birth_date: '1990-03-04', issue_date: '2026-01-10', expiry_date: '2036-01-10', issuing_country: country,
          issuing_authority: 'KBA', document_number: 'D1', portrait: 'AAEC', driving_privileges: [{ vehicle_category_code: 'B' }], un_distinguishing_sign: 'D',
        }),
        signer: issuer.signer, deviceKeyJwk: holder.publicJwk, validFrom: VALID_FROM, validUntil: VALID_UNTIL,
      });
    const ask = { 'org.iso.18013.5.1': ['issuing_country', 'given_name'] };
    expect(await codes(await createDeviceResponse({ issuerSigned: await mdl('DE'), holder, request: ask, ...REQUEST }))).toEqual([]);
    expect(await codes(await createDeviceResponse({ issuerSigned: await mdl('FR'), holder, request: ask, ...REQUEST }))).toEqual(['ISSUING_COUNTRY_MISMATCH']);
  });

  it('names from the CBOR are looked up as data, never as object properties (digestAlgorithm "constructor", element "__proto__")', async () => {
    const odd = tamper(await present(), (doc) => {
      const auth = issuerAuth(doc);
      const mso = new Map(cborDecode<DataItem>(auth[2] as Uint8Array, { unwrapTopLevelDataItem: false }).data as CborMap);
      mso.set('digestAlgorithm', 'constructor');
      auth[2] = cborEncode(DataItem.fromData(mso));
    });
    expect(await codes(odd)).toEqual(['ISSUER_SIGNATURE_INVALID', 'DIGEST_ALGORITHM_UNSUPPORTED']);
    const proto = tamper(await present(), (doc) => editItem(doc, 'given_name', (i) => i.set('elementIdentifier', '__proto__')));
    const result = await verify(proto);
    expect(result.problems.map((p) => p.code)).toEqual(['ELEMENT_DIGEST_MISMATCH']);
    expect(Object.getPrototypeOf(result.documents[0]?.claims[PID])).toBe(Object.prototype);
  });

  it('a changed algorithm in the protected header is refused', async () => {
    const eddsa = tamper(await present(), (doc) => {
      issuerAuth(doc)[0] = cborEncode(new Map([[1, -8]]));
    });
    expect(await codes(eddsa)).toEqual(['UNSUPPORTED_ALGORITHM']);
  });

  it('an mdoc outside its validity (expired, or not yet valid) is refused', async () => {
    const response = await present();
    expect(await codes(response, { now: new Date('2027-01-15T00:00:01Z') })).toEqual(['EXPIRED']);
    expect(await codes(response, { now: new Date('2026-01-14T23:59:59Z') })).toEqual(['NOT_YET_VALID']);
    expect(await codes(response, { now: new Date('2027-01-15T00:00:00Z') })).toEqual([]);
  });

  it('an MSO signed outside its certificate\'s validity is refused', async () => {
    const late = await testIssuer('Late', { notBefore: new Date('2026-03-01T00:00:00Z'), notAfter: new Date('2030-01-01T00:00:00Z') });
    const response = await createDeviceResponse({ issuerSigned: await issue(late.signer), holder, request: DISCLOSE, ...REQUEST });
    expect(await codes(response, { trust: anchorsTrust([late.rootDer]) })).toEqual(['ISSUER_CERTIFICATE_VALIDITY']);
  });

  it('a document of another doctype than requested, or claiming another doctype than its MSO, is refused', async () => {
    expect(await codes(await present(), { expectedDocType: 'org.iso.18013.5.1.mDL' })).toEqual(['DOC_TYPE_MISMATCH']);
    // The holder signs DeviceAuthentication for the doctype it claims, so only the MSO comparison catches it.
    const relabelled = await present({ docType: 'org.iso.18013.5.1.mDL' });
    expect(await codes(relabelled)).toEqual(['DOC_TYPE_MISMATCH']);
  });

  it.each([
    ['nonce', { nonce: 'a-nonce-of-another-request' }],
    ['client_id', { clientId: 'x509_san_dns:attacker.example' }],
    ['response_uri', { responseUri: 'https://attacker.example/response' }],
    ['encryption key thumbprint', { jwkThumbprint: jwkThumbprint(deviceKey().publicJwk) }],
  ])('a device signature made for another %s is refused', async (_what, other) => {
    const response = await present(other);
    expect(await codes(response)).toEqual(['DEVICE_SIGNATURE_INVALID']);
  });

  it('a device signature by a key that is not the MSO deviceKey is refused', async () => {
    const thief = deviceKey();
    expect(await codes(await present({ holder: thief }))).toEqual(['DEVICE_SIGNATURE_INVALID']);
  });

  it('a device signature with an attached payload, a deviceMac, or no device authentication is refused', async () => {
    const attached = tamper(await present(), (doc) => {
      const auth = ((doc.get('deviceSigned') as CborMap).get('deviceAuth') as CborMap).get('deviceSignature') as unknown[];
      auth[2] = new Uint8Array([1, 2, 3]);
    });
    expect(await codes(attached)).toEqual(['DEVICE_SIGNATURE_INVALID']);
    const mac = tamper(await present(), (doc) => {
      const deviceAuth = (doc.get('deviceSigned') as CborMap).get('deviceAuth') as CborMap;
      deviceAuth.set('deviceMac', deviceAuth.get('deviceSignature'));
      deviceAuth.delete('deviceSignature');
    });
    expect(await codes(mac)).toEqual(['DEVICE_MAC_UNSUPPORTED']);
    const none = tamper(await present(), (doc) => ((doc.get('deviceSigned') as CborMap).get('deviceAuth') as CborMap).clear());
    expect(await codes(none)).toEqual(['DEVICE_AUTH_MISSING']);
  });

  it('a response with an error status or without documents does not verify', async () => {
    expect(await codes(tamper(await present(), (_doc, root) => root.set('status', 10)))).toEqual(['RESPONSE_STATUS']);
    expect(await codes(tamper(await present(), (_doc, root) => root.set('documents', [])))).toEqual(['NO_DOCUMENTS']);
  });

  it('bytes that are not a DeviceResponse are INVALID_INPUT, not a crash', async () => {
    const good = await present();
    const refused = expect.objectContaining({ code: 'INVALID_INPUT' });
    const inputs: (Uint8Array | string)[] = [
      new Uint8Array(0),
      new Uint8Array([0xff, 0x00, 0x13]),
      good.subarray(0, good.length - 7),
      cborEncode(['not', 'a', 'map']),
      cborEncode(new Map<string, unknown>([['version', '1.0'], ['status', 0], ['documents', [new Map([['docType', PID]])]]])),
      tamper(good, (doc) => (doc.get('issuerSigned') as CborMap).set('issuerAuth', 'nope')),
      tamper(good, (doc) => editItem(doc, 'given_name', (i) => i.set('digestID', -1))),
      tamper(good, (doc) => (issuerAuth(doc)[2] = new Uint8Array([0x01]))),
      new Uint8Array(Array.from({ length: 10_000 }, () => 0x81)), // ten thousand nested arrays
      new Uint8Array(2 * 1024 * 1024),
      'not base64url!',
    ];
    for (const input of inputs) await expect(verifyDeviceResponse(input, { ...REQUEST, trust: anchorsTrust([issuer.rootDer]), now: NOW })).rejects.toEqual(refused);
  });

  it('presentations are charged to the request\'s budget of decoded bytes (habit 14)', async () => {
    const response = await present();
    const budget = new RequestBudget({ ...DEFAULT_VERIFICATION_LIMITS, maxDecodedBytes: response.length * 2 + 10 });
    await withBudget(budget, async () => {
      expect((await verify(response)).verified).toBe(true);
      expect((await verify(response)).verified).toBe(true);
      await expect(verify(response)).rejects.toEqual(expect.objectContaining({ code: 'INVALID_INPUT' }));
    });
  });

  it('infrastructure faults of the trust function are not mistaken for an untrusted issuer', async () => {
    const broken = async (): Promise<never> => {
      throw new Error('anchor store unreachable');
    };
    await expect(verify(await present(), { trust: broken })).rejects.toThrow('anchor store unreachable');
  });
});
