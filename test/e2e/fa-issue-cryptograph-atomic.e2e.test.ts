import { randomBytes } from 'node:crypto';
import { useTestServer } from '../support/harness';
import { FAMILY_A_TRANSPORTS, consent, newHolder, newParty, schemaBody, subject, unwrap } from '../support/family-a-fixtures';

/**
 * Attack: a credential whose cryptograph cannot fit a QR code, requested with
 * `downloadCryptograph=true`. The request must fail as a client error BEFORE anything is stored,
 * so a retry cannot leave duplicate live credentials behind ("bad input changes nothing").
 */
const server = useTestServer();

describe.each(FAMILY_A_TRANSPORTS)('cryptograph download is all-or-nothing through %s', (name) => {
  test('too large for a QR code: 400 on every retry and no credential row, then a normal issue works', async () => {
    const p = await newParty(server, name);
    const h = await newHolder(p);
    const issuerDid = unwrap(await p.fa.issuerDid(p.issuerKey));
    const schemaName = `Qr${randomBytes(3).toString('hex')}`;
    unwrap(await p.fa.createSchema(p.issuerKey, schemaBody(schemaName)));
    // 6,000 hex characters of randomness: deflate cannot shrink it below the QR capacity.
    const values = { ...subject(), employeeId: randomBytes(3000).toString('hex') };
    const headers = await consent(p, h, issuerDid, values);
    const rows = () => server.app.db.prisma.issuedCredential.count({ where: { holderDid: h.did } });
    const body = { schemaName: `${schemaName}:1`, credentialSubject: values };

    for (let attempt = 0; attempt < 2; attempt++) {
      expect(await p.fa.issue(p.issuerKey, headers, body, { downloadCryptograph: true })).toMatchObject({ ok: false, status: 400 });
      expect(await rows()).toBe(0);
    }
    // The same request without the QR image is fine and stores exactly one credential.
    unwrap(await p.fa.issue(p.issuerKey, headers, body));
    expect(await rows()).toBe(1);
  });
});
