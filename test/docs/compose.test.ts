import { readFileSync } from 'node:fs';
import path from 'node:path';

/*
 * Issue 20, item 5: compose.yaml published CREDGATE_PORT but kept CREDGATE_PUBLIC_URL at
 * http://localhost:4000, so with another port every URL the service hands out (status lists,
 * OpenID4VC issuer and offers, DID documents) pointed at nothing. The default is composed from the port.
 */
const compose = readFileSync(path.resolve(__dirname, '../../compose.yaml'), 'utf8');

test('the published port and the default public URL name the same variable and default', () => {
  const published = /- "\$\{CREDGATE_PORT:-(\d+)\}:4000"/.exec(compose);
  expect(published).not.toBeNull();
  expect(compose).toContain(`CREDGATE_PUBLIC_URL: \${CREDGATE_PUBLIC_URL:-http://localhost:\${CREDGATE_PORT:-${published![1]}}}`);
});
