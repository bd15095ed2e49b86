import type { Request } from 'express';
import { createZkp, issueCredentialA, reissueCredentialA } from '../../src/contracts/family-a/issuer';
import { verifyCredentialA } from '../../src/contracts/family-a/verifier';
import { booleanQueryOf } from '../../src/rest/middleware/validate-query';

/**
 * Query parameters are read through the parameter the operation declares (issue 20): the schema
 * /openapi.json documents is the one a value is checked against, and a route cannot read a
 * parameter its operation does not declare.
 */
const withQuery = (query: Record<string, unknown>): Request => ({ query }) as unknown as Request;

test.each([verifyCredentialA, issueCredentialA, reissueCredentialA].flatMap((op) => (op.query ?? []).map((p) => [op.id, p.name] as const)))(
  '%s ?%s: absent is false, true and false are read, anything else is 400 naming the parameter',
  (id, name) => {
    const op = [verifyCredentialA, issueCredentialA, reissueCredentialA].find((o) => o.id === id)!;
    const read = booleanQueryOf(op, name);
    expect(read(withQuery({}))).toBe(false);
    expect(read(withQuery({ [name]: 'true' }))).toBe(true);
    expect(read(withQuery({ [name]: 'false' }))).toBe(false);
    for (const bad of ['yes', '1', '', 'TRUE', ['true', 'true'], { a: 'true' }]) {
      let error: unknown;
      try {
        read(withQuery({ [name]: bad }));
      } catch (e) {
        error = e;
      }
      expect(error).toMatchObject({ code: 'INVALID_INPUT', message: `${name} must be true or false`, details: [{ field: name, message: 'true or false' }] });
    }
  },
);

test('a parameter the operation does not declare cannot be read (the route fails when mounted)', () => {
  expect(() => booleanQueryOf(createZkp, 'zkpValidation')).toThrow(/declares no query parameter zkpValidation/);
  expect(() => booleanQueryOf(verifyCredentialA, 'isCryptograph')).toThrow(/declares no query parameter isCryptograph/);
});
