import { randomBytes } from 'node:crypto';
import { consent, newHolder, newParty, schemaBody, subject, unwrap } from './family-a-fixtures';
import type { TestServer } from './harness';

/**
 * Issues one Family A credential (over REST), so the issuer keeps its subject sealed under the
 * master key: what the CLI suites re-seal (rotation) or move (export/import). In `tenant` when
 * given, else in a new one.
 */
export async function issueSealedSubject(server: TestServer, tenant?: string): Promise<void> {
  const p = await newParty(server, 'REST');
  if (tenant) {
    p.issuerKey = await server.apiKey(tenant, ['issuer']);
    p.holderKey = await server.apiKey(tenant, ['holder']);
  }
  const issuerDid = unwrap(await p.fa.issuerDid(p.issuerKey));
  const name = `Badge${randomBytes(3).toString('hex')}`;
  unwrap(await p.fa.createSchema(p.issuerKey, schemaBody(name)));
  const holder = await newHolder(p);
  const values = subject();
  const body = { schemaName: `${name}:1`, isEncrypted: false, dependantVerifiableCredential: [], credentialSubject: values };
  unwrap(await p.fa.issue(p.issuerKey, await consent(p, holder, issuerDid, values), body));
}
