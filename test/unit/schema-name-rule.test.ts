import { SCHEMA_NAME_RULE, parseSchemaRequest } from '../../src/domain/schemas';
import { parseSchemaRef } from '../../src/services/family-a/schemas.service';
import { expectAppError } from '../support/app-error';

/*
 * Issue 12: the schemaName message said '"_" allowed, starting with a letter or digit' while
 * `P_assport` and `1Passport` were refused. The message must state the rule actually enforced.
 */

const validRequest = (schemaName: string) => ({
  schemaName,
  description: 'A passport',
  attributes: [{ attributeName: 'name', type: 'alphanumeric', description: 'Full name', required: true }],
  expiration: { value: 1, unit: 'years' },
});

/** The rule exactly as the message words it, implemented independently of the validator's regex. */
function followsStatedRule(name: string): boolean {
  const letter = (c: string) => (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
  const digit = (c: string) => c >= '0' && c <= '9';
  const chars = [...name];
  if (chars.length < 1 || chars.length > 128) return false;
  if (!letter(chars[0]!)) return false;
  return chars.slice(1).every((c) => letter(c) || digit(c) || c === '.' || c === '-');
}

function accepted(name: string): boolean {
  try {
    parseSchemaRequest(validRequest(name));
    return true;
  } catch {
    return false;
  }
}

const ACCEPTED = ['Passport', 'P', 'passport-v2', 'Pass.port', 'A1', 'x'.repeat(128), 'ID-Card.2026'];
const REFUSED = ['P_assport', '1Passport', '_Passport', '-Passport', '.hidden', 'Pass port', 'Pass:port', 'a/b', 'Pässport', '', 'x'.repeat(129), 'Pass+port'];

test('the message words the rule: a letter first, then letters, digits, "." or "-", 1-128 characters', () => {
  expect(SCHEMA_NAME_RULE).toBe('1-128 characters: an ASCII letter first, then ASCII letters, digits, "." or "-" (no "_", spaces or ":")');
});

test.each(ACCEPTED)('%j follows the stated rule and is accepted', (name) => {
  expect(followsStatedRule(name)).toBe(true);
  expect(accepted(name)).toBe(true);
});

test.each(REFUSED)('%j breaks the stated rule, is refused, and the error states the rule', (name) => {
  expect(followsStatedRule(name)).toBe(false);
  const err = expectAppError(() => parseSchemaRequest(validRequest(name)), 'INVALID_INPUT');
  expect(err.details).toEqual([{ field: 'schemaName', message: `schemaName must be ${SCHEMA_NAME_RULE}` }]);
  expect(err.message).toContain(SCHEMA_NAME_RULE);
});

test('schema references (`name` or `name:3`) state the same rule when refused', () => {
  expect(parseSchemaRef('Passport:3')).toEqual({ name: 'Passport', version: 3 });
  for (const ref of ['P_assport', '1Passport:2']) {
    const err = expectAppError(() => parseSchemaRef(ref), 'INVALID_INPUT');
    expect(err.message).toContain(SCHEMA_NAME_RULE);
    expect(err.details?.[0]?.message).toContain(SCHEMA_NAME_RULE);
  }
});
