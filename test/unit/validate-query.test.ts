import type { Request } from 'express';
import { createZkp, issueCredentialA, reissueCredentialA } from '../../src/contracts/family-a/issuer';
import { verifyCredentialA } from '../../src/contracts/family-a/verifier';
import { userSign } from '../../src/contracts/family-a/user';
import { ledgerConsistency, ledgerInclusion, ledgerLeaves } from '../../src/contracts/family-b/ledger';
import { listTemplates } from '../../src/contracts/family-b/templates';
import { listOffers } from '../../src/contracts/oid4vci';
import { publicSchema, publicTenantSchema } from '../../src/contracts/service';
import { booleanQueryOf, integerQueryOf, requiredIntegerQueryOf, requiredStringQueryOf, stringQueryOf } from '../../src/rest/middleware/validate-query';
import { MAX_TEMPLATE_PAGE } from '../../src/services/family-b/templates.service';

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

/*
 * The text and integer parameters (issue 20, the remaining route helpers): each bad value is a 400
 * INVALID_INPUT that names the parameter, the same code the route helpers answered; good values are
 * read as the service expects them.
 */
function failure(read: () => unknown): { code?: unknown; message?: unknown; details?: unknown } {
  try {
    read();
  } catch (e) {
    return e as { code?: unknown; message?: unknown; details?: unknown };
  }
  throw new Error('the value was accepted');
}

const badIntegers = ['', 'abc', '1.5', '-1', '+1', '01', '1e1', '0x1', ' 1', '99999999999999999999', ['1', '2'], { a: '1' }];

describe('integer parameters', () => {
  test.each([
    [listOffers.id, 'first', 1, 200, listOffers],
    [listTemplates.id, 'first', 1, MAX_TEMPLATE_PAGE, listTemplates],
    [publicSchema.id, 'version', 1, 999_999_999, publicSchema],
    [publicTenantSchema.id, 'version', 1, 999_999_999, publicTenantSchema],
    [ledgerInclusion.id, 'treeSize', 0, Number.MAX_SAFE_INTEGER, ledgerInclusion],
    [ledgerConsistency.id, 'to', 0, Number.MAX_SAFE_INTEGER, ledgerConsistency],
  ] as const)('%s ?%s (optional): absent is undefined, %s..%s is read, the rest is 400 naming it', (_id, name, min, max, op) => {
    const read = integerQueryOf(op, name);
    expect(read(withQuery({}))).toBeUndefined();
    expect(read(withQuery({ [name]: String(min) }))).toBe(min);
    expect(read(withQuery({ [name]: String(max) }))).toBe(max);
    for (const bad of [...badIntegers, String(max + 1), ...(min > 0 ? [String(min - 1)] : [])]) {
      const e = failure(() => read(withQuery({ [name]: bad })));
      expect(e).toMatchObject({ code: 'INVALID_INPUT', details: [{ field: name }] });
      expect(String(e.message)).toMatch(new RegExp(`^${name} must be (a non-negative integer|an integer from ${min} to ${max})$`));
    }
  });

  test.each([
    [ledgerInclusion.id, 'leafIndex', ledgerInclusion],
    [ledgerConsistency.id, 'from', ledgerConsistency],
    [ledgerLeaves.id, 'start', ledgerLeaves],
    [ledgerLeaves.id, 'end', ledgerLeaves],
  ] as const)('%s ?%s (required): absent is 400 "the <name> query parameter is required", the ledger messages are unchanged', (_id, name, op) => {
    const read = requiredIntegerQueryOf(op, name);
    expect(read(withQuery({ [name]: '0' }))).toBe(0);
    expect(read(withQuery({ [name]: '9007199254740991' }))).toBe(Number.MAX_SAFE_INTEGER);
    expect(failure(() => read(withQuery({})))).toMatchObject({ code: 'INVALID_INPUT', message: `the ${name} query parameter is required`, details: [{ field: name, message: 'required' }] });
    for (const bad of [...badIntegers, '9007199254740992']) {
      expect(failure(() => read(withQuery({ [name]: bad })))).toMatchObject({ code: 'INVALID_INPUT', message: `${name} must be a non-negative integer`, details: [{ field: name }] });
    }
  });

  test('the page sizes the contracts declare are the ones the services enforce', () => {
    expect((listTemplates.query?.find((p) => p.name === 'first')?.schema as { maximum?: number }).maximum).toBe(MAX_TEMPLATE_PAGE);
  });
});

describe('text parameters', () => {
  const uuid = '7c9e6679-7425-40de-944b-e07fc1f90ae7';

  test.each([
    [listTemplates.id, 'after', 'after must be the templateId of a listed template', listTemplates],
    [listOffers.id, 'after', 'after must be an offer id', listOffers],
  ] as const)('%s ?%s: a uuid cursor is read; anything else (%s), or given twice, is 400 naming it', (_id, name, message, op) => {
    const read = stringQueryOf(op, name);
    expect(read(withQuery({}))).toBeUndefined();
    expect(read(withQuery({ [name]: uuid }))).toBe(uuid);
    expect(read(withQuery({ [name]: uuid.toUpperCase() }))).toBe(uuid.toUpperCase());
    for (const bad of ['', 'x', `${uuid}x`, ` ${uuid}`, `${uuid}\n`]) {
      expect(failure(() => read(withQuery({ [name]: bad })))).toMatchObject({ code: 'INVALID_INPUT', message, details: [{ field: name }] });
    }
    for (const bad of [[uuid, uuid], { a: uuid }]) {
      expect(failure(() => read(withQuery({ [name]: bad })))).toMatchObject({ code: 'INVALID_INPUT', message: `${name} must be given once`, details: [{ field: name }] });
    }
  });

  test('userSign ?issuerDID is required, non-blank, at most 512 characters, once', () => {
    const read = requiredStringQueryOf(userSign, 'issuerDID');
    const did = 'did:hedera:testnet:z6Mk_0.0.1';
    expect(read(withQuery({ issuerDID: did }))).toBe(did);
    for (const missing of [undefined, '', '   ']) {
      expect(failure(() => read(withQuery(missing === undefined ? {} : { issuerDID: missing })))).toMatchObject({ code: 'INVALID_INPUT', message: 'the issuerDID query parameter is required', details: [{ field: 'issuerDID' }] });
    }
    expect(read(withQuery({ issuerDID: 'd'.repeat(512) }))).toHaveLength(512);
    expect(failure(() => read(withQuery({ issuerDID: 'd'.repeat(513) })))).toMatchObject({ code: 'INVALID_INPUT', message: 'issuerDID is too long (at most 512 characters)', details: [{ field: 'issuerDID', message: 'too long' }] });
    expect(failure(() => read(withQuery({ issuerDID: [did, did] })))).toMatchObject({ code: 'INVALID_INPUT', message: 'issuerDID must be given once' });
  });

  test('userSign ?schemaName is a schema name, optionally with :<version>', () => {
    const read = stringQueryOf(userSign, 'schemaName');
    expect(read(withQuery({}))).toBeUndefined();
    expect(read(withQuery({ schemaName: 'EmployeeBadge' }))).toBe('EmployeeBadge');
    expect(read(withQuery({ schemaName: 'EmployeeBadge:12' }))).toBe('EmployeeBadge:12');
    for (const bad of ['', '1Badge', 'Badge:0', 'Badge:01', 'Badge:1:2', 'Bad ge', 'Bädge', `B${'a'.repeat(128)}`]) {
      expect(failure(() => read(withQuery({ schemaName: bad })))).toMatchObject({ code: 'INVALID_INPUT', message: 'schemaName must be a schema name, optionally with :<version>', details: [{ field: 'schemaName' }] });
    }
    expect(failure(() => read(withQuery({ schemaName: `B${'a'.repeat(200)}` })))).toMatchObject({ code: 'INVALID_INPUT', message: 'schemaName is too long (at most 138 characters)' });
  });
});

test('a reader must match the declaration: kind and required-ness are checked when the route mounts', () => {
  expect(() => integerQueryOf(listTemplates, 'after')).toThrow(/not an integer parameter/);
  expect(() => stringQueryOf(listTemplates, 'first')).toThrow(/not a string parameter/);
  expect(() => integerQueryOf(ledgerLeaves, 'start')).toThrow(/declared required/);
  expect(() => requiredIntegerQueryOf(ledgerInclusion, 'treeSize')).toThrow(/declared optional/);
  expect(() => requiredStringQueryOf(userSign, 'schemaName')).toThrow(/declared optional/);
  expect(() => stringQueryOf(userSign, 'issuerDID')).toThrow(/declared required/);
  expect(() => integerQueryOf(listOffers, 'last')).toThrow(/declares no query parameter last/);
});
