import { AppError } from '../../src/errors';
import { canonicalize } from '../../src/domain/canonical';
import {
  ALPHABET_PATTERN,
  attributeTypesOfBody,
  buildSchemaBody,
  JSON_SCHEMA_DRAFT_04,
  MAX_ATTRIBUTES,
  parseAttributeDefinitions,
  parseDateValue,
  parseExpiration,
  parseIntegerValue,
  parseSchemaBody,
  parseSchemaRequest,
  type SchemaBody,
  type SchemaDraft,
  SubjectValidator,
  validateSubject,
} from '../../src/domain/schemas';
import { expectAppError } from '../support/app-error';

function fieldsOf(err: AppError): string[] {
  return (err.details ?? []).map((d) => d.field);
}

/** A fresh createSchema request covering every attribute type. */
function request(): Record<string, unknown> {
  return {
    schemaName: 'Passport',
    description: 'A passport',
    attributes: {
      attributes: [
        { attributeName: 'name', type: 'alphanumeric', description: 'Full name', required: true, maxLength: '20' },
        { attributeName: 'surname', type: 'alphabet', description: 'Surname', required: true },
        { attributeName: 'email', type: 'email', description: 'E-mail', required: false },
        { attributeName: 'age', type: 'number', description: 'Age', required: true },
        { attributeName: 'dob', type: 'date', description: 'Date of birth', required: false },
      ],
    },
    expiration: { value: 1, unit: 'years' },
    dependantSchemas: [],
  };
}

function body(): SchemaBody {
  return buildSchemaBody(parseSchemaRequest(request()));
}

const DID = 'did:svcid:testnet:z6MkabcDEF;svcid:testnet:fid=0.0.1234';

describe('parseAttributeDefinitions', () => {
  const good = () => [
    { attributeName: 'name', type: 'alphanumeric', description: 'Name', required: true },
    { attributeName: 'age', type: 'number', description: 'Age', required: false },
  ];

  it('accepts valid definitions, as the array or the createSchema wrapper', () => {
    const expected = [
      { attributeName: 'name', type: 'alphanumeric', description: 'Name', required: true },
      { attributeName: 'age', type: 'number', description: 'Age', required: false },
    ];
    expect(parseAttributeDefinitions(good())).toEqual(expected);
    expect(parseAttributeDefinitions({ attributes: good() })).toEqual(expected);
  });

  it('keeps maxLength as the digit string', () => {
    const [def] = parseAttributeDefinitions([
      { attributeName: 'code', type: 'alphanumeric', description: '', required: true, maxLength: '12' },
    ]);
    expect(def?.maxLength).toBe('12');
  });

  it('rejects an unknown type with a message naming the allowed values', () => {
    const defs = good();
    defs.push({ attributeName: 'x', type: 'boolean', description: '', required: true });
    const err = expectAppError(() => parseAttributeDefinitions(defs), 'INVALID_INPUT');
    expect(err.message).toContain('alphanumeric, alphabet, email, number, date');
    expect(fieldsOf(err)).toEqual(['attributes[2].type']);
  });

  it('reports every problem with its own field, not only the first', () => {
    const err = expectAppError(
      () =>
        parseAttributeDefinitions([
          { attributeName: '', type: 'number', description: 'x', required: true },
          { attributeName: 'ok', type: 'bogus', description: 5, required: 'yes' },
          { attributeName: '1abc', type: 'date', description: 'd', required: false, maxLength: '3' },
          'not an object',
        ]),
      'INVALID_INPUT',
    );
    expect(fieldsOf(err)).toEqual([
      'attributes[0].attributeName',
      'attributes[1].type',
      'attributes[1].description',
      'attributes[1].required',
      'attributes[2].attributeName',
      'attributes[2].maxLength',
      'attributes[3]',
    ]);
    expect(err.message).toMatch(/and 2 more$/);
  });

  it.each([
    ['with space'],
    ['has-dash'],
    ['_lead'],
    ['name='],
    ['a/b'],
    ['__proto__'],
    ['naïve'],
    ['a'.repeat(65)],
    ['id'],
  ])('rejects the attribute name %j', (attributeName) => {
    const err = expectAppError(
      () => parseAttributeDefinitions([{ attributeName, type: 'alphanumeric', description: '', required: true }]),
      'INVALID_INPUT',
    );
    expect(fieldsOf(err)).toEqual(['attributes[0].attributeName']);
  });

  it('accepts a 64-character name and names such as constructor', () => {
    const names = ['a'.repeat(64), 'constructor', 'A_1'];
    const input = names.map((attributeName) => ({ attributeName, type: 'alphabet', description: '', required: false }));
    const defs = parseAttributeDefinitions(input);
    expect(defs.map((d) => d.attributeName)).toEqual(names);
  });

  it('rejects duplicate names, also when they differ only in case', () => {
    const err = expectAppError(
      () =>
        parseAttributeDefinitions([
          { attributeName: 'age', type: 'number', description: '', required: true },
          { attributeName: 'age', type: 'number', description: '', required: true },
          { attributeName: 'Age', type: 'number', description: '', required: true },
        ]),
      'INVALID_INPUT',
    );
    expect(fieldsOf(err)).toEqual(['attributes[1].attributeName', 'attributes[2].attributeName']);
    expect(err.details?.[0]?.message).toContain('attributes[0].attributeName');
  });

  it.each([['0'], ['012'], ['12a'], [''], ['-1'], ['1000001'], [12]])('rejects maxLength %j', (maxLength) => {
    const err = expectAppError(
      () => parseAttributeDefinitions([{ attributeName: 'a', type: 'alphanumeric', description: '', required: true, maxLength }]),
      'INVALID_INPUT',
    );
    expect(fieldsOf(err)).toEqual(['attributes[0].maxLength']);
  });

  it('rejects maxLength on number and date attributes', () => {
    const err = expectAppError(
      () =>
        parseAttributeDefinitions([
          { attributeName: 'n', type: 'number', description: '', required: true, maxLength: '3' },
          { attributeName: 'e', type: 'email', description: '', required: true, maxLength: '30' },
        ]),
      'INVALID_INPUT',
    );
    expect(fieldsOf(err)).toEqual(['attributes[0].maxLength']);
  });

  it('rejects unknown fields (a misspelt maxlength must not silently drop the limit)', () => {
    const err = expectAppError(
      () => parseAttributeDefinitions([{ attributeName: 'a', type: 'alphanumeric', description: '', required: true, maxlength: '3' }]),
      'INVALID_INPUT',
    );
    expect(fieldsOf(err)).toEqual(['attributes[0].maxlength']);
  });

  it('rejects a non-array, an empty list and too many attributes', () => {
    expect(fieldsOf(expectAppError(() => parseAttributeDefinitions('x'), 'INVALID_INPUT'))).toEqual(['attributes']);
    expect(fieldsOf(expectAppError(() => parseAttributeDefinitions([]), 'INVALID_INPUT'))).toEqual(['attributes']);
    expect(fieldsOf(expectAppError(() => parseAttributeDefinitions({ attributes: {} }), 'INVALID_INPUT'))).toEqual([
      'attributes.attributes',
    ]);
    const many = Array.from({ length: MAX_ATTRIBUTES + 1 }, (_, i) => ({
      attributeName: `a${i}`,
      type: 'alphanumeric',
      description: '',
      required: false,
    }));
    expectAppError(() => parseAttributeDefinitions(many), 'INVALID_INPUT');
  });
});

describe('parseExpiration', () => {
  it.each(['years', 'months', 'weeks', 'days', 'hours', 'minutes'])('accepts unit %s', (unit) => {
    expect(parseExpiration({ value: 2, unit })).toEqual({ value: 2, unit });
  });

  it.each([
    [{ value: 0, unit: 'years' }, ['expiration.value']],
    [{ value: 1.5, unit: 'years' }, ['expiration.value']],
    [{ value: '1', unit: 'years' }, ['expiration.value']],
    [{ value: 1001, unit: 'years' }, ['expiration.value']],
    [{ value: 1, unit: 'fortnights' }, ['expiration.unit']],
    [{ value: -1, unit: 'Years' }, ['expiration.unit', 'expiration.value']],
    [{ value: 1, unit: 'days', extra: true }, ['expiration.extra']],
    [null, ['expiration']],
  ])('rejects %j', (input, fields) => {
    expect(fieldsOf(expectAppError(() => parseExpiration(input), 'INVALID_INPUT'))).toEqual(fields);
  });
});

describe('parseSchemaRequest', () => {
  it('reports problems across all fields at once', () => {
    const err = expectAppError(
      () =>
        parseSchemaRequest({
          schemaName: 'bad:name',
          description: 3,
          attributes: [{ attributeName: 'a', type: 'x', description: '', required: true }],
          expiration: { value: 1, unit: 'eons' },
          dependantSchemas: ['ok', 'ok', 'bad/name'],
          extra: 1,
        }),
      'INVALID_INPUT',
    );
    expect(fieldsOf(err)).toEqual([
      'body.extra',
      'schemaName',
      'description',
      'attributes[0].type',
      'expiration.unit',
      'dependantSchemas[1]',
      'dependantSchemas[2]',
    ]);
  });

  it('defaults dependantSchemas to an empty list and accepts versioned references', () => {
    const r = request();
    delete r.dependantSchemas;
    expect(parseSchemaRequest(r).dependantSchemas).toEqual([]);
    expect(parseSchemaRequest({ ...request(), dependantSchemas: ['Address', 'Id:2'] }).dependantSchemas).toEqual(['Address', 'Id:2']);
  });

  it.each(['', '.hidden', 'a/b', 'a b', 'x'.repeat(129)])('rejects schema name %j', (schemaName) => {
    expect(fieldsOf(expectAppError(() => parseSchemaRequest({ ...request(), schemaName }), 'INVALID_INPUT'))).toEqual(['schemaName']);
  });
});

describe('buildSchemaBody', () => {
  it('produces exactly the spec 2.2 body with the 2.3 mapping', () => {
    expect(body()).toStrictEqual({
      $schema: 'http://json-schema.org/draft-04/schema#',
      title: 'Passport',
      description: 'A passport',
      type: 'object',
      properties: {
        name: { type: 'string', description: 'Full name', maxLength: '20' },
        surname: { type: 'string', description: 'Surname', pattern: '[a-zA-Z]+$' },
        email: { type: 'string', description: 'E-mail', format: 'email' },
        age: { type: 'integer', description: 'Age' },
        dob: { type: 'date', description: 'Date of birth', format: 'date-time' },
      },
      required: ['name', 'surname', 'age'],
      expiration: { value: 1, unit: 'years' },
      dependantSchemas: [],
    });
  });

  it('has a deterministic member order, so the same request yields the same bytes', () => {
    const b = body();
    expect(Object.keys(b)).toEqual(['$schema', 'title', 'description', 'type', 'properties', 'required', 'expiration', 'dependantSchemas']);
    expect(Object.keys(b.properties)).toEqual(['name', 'surname', 'email', 'age', 'dob']);
    expect(JSON.stringify(body())).toBe(JSON.stringify(b));
  });

  it('re-validates a hand-built draft', () => {
    const draft = {
      schemaName: 'S',
      description: '',
      attributes: [{ attributeName: 'bad name', type: 'number', description: '', required: true }],
      expiration: { value: 1, unit: 'days' },
      dependantSchemas: [],
    } as unknown as SchemaDraft;
    expect(fieldsOf(expectAppError(() => buildSchemaBody(draft), 'INVALID_INPUT'))).toEqual(['attributes[0].attributeName']);
  });

  it('round-trips through parseSchemaBody and maps back to attribute types', () => {
    const b = body();
    expect(parseSchemaBody(JSON.parse(JSON.stringify(b)))).toEqual(b);
    expect(attributeTypesOfBody(b)).toEqual({ name: 'alphanumeric', surname: 'alphabet', email: 'email', age: 'number', dob: 'date' });
  });
});

describe('parseSchemaBody', () => {
  it('refuses bodies not shaped as buildSchemaBody makes them', () => {
    const b = JSON.parse(JSON.stringify(body())) as Record<string, any>;
    b.$schema = 'http://json-schema.org/draft-07/schema#';
    b.properties.surname.pattern = '(a+)+$';
    b.properties.age.maxLength = 3;
    b.properties['bad name'] = { type: 'string', description: '' };
    b.required.push('missing');
    const err = expectAppError(() => parseSchemaBody(b), 'INVALID_INPUT');
    expect(err.message).toMatch(/^schema body is malformed/);
    expect(fieldsOf(err)).toEqual([
      'schema.$schema',
      'schema.properties.surname.pattern',
      'schema.properties.age.maxLength',
      'schema.properties.bad name',
      'schema.required[3]',
    ]);
  });
});

describe('validateSubject', () => {
  const subject = (): Record<string, unknown> => ({
    id: DID,
    name: 'Ada Lovelace',
    surname: 'Lovelace',
    email: 'ada@example.org',
    age: '36',
    dob: '1815-12-10',
  });

  it('accepts a valid subject and normalises number strings to numbers', () => {
    const result = validateSubject(body(), subject());
    expect(result).toEqual({
      ok: true,
      value: { id: DID, name: 'Ada Lovelace', surname: 'Lovelace', email: 'ada@example.org', age: 36, dob: '1815-12-10' },
    });
  });

  it('accepts optional attributes being absent and JSON integers', () => {
    const s = subject();
    delete s.email;
    delete s.dob;
    s.age = 36;
    expect(validateSubject(body(), s)).toEqual({ ok: true, value: { id: DID, name: 'Ada Lovelace', surname: 'Lovelace', age: 36 } });
  });

  it('reports every violation, one issue per attribute and rule', () => {
    const result = validateSubject(body(), {
      name: 'x'.repeat(21),
      surname: 'L0velace',
      email: 'not-an-email',
      age: '1.5',
      dob: '2023-02-29',
      nickname: 'Ada',
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues.map((i) => i.field).sort()).toEqual(
      [
        'credentialSubject.id',
        'credentialSubject.nickname',
        'credentialSubject.name',
        'credentialSubject.surname',
        'credentialSubject.email',
        'credentialSubject.age',
        'credentialSubject.dob',
      ].sort(),
    );
    const byField = Object.fromEntries(result.issues.map((i) => [i.field, i.message]));
    expect(byField['credentialSubject.id']).toBe('id is required');
    expect(byField['credentialSubject.nickname']).toBe('nickname is not an attribute of schema Passport');
    expect(byField['credentialSubject.name']).toBe('name must be at most 20 characters long');
    expect(byField['credentialSubject.surname']).toBe('surname must contain only the letters A-Z and a-z');
    expect(byField['credentialSubject.email']).toBe('email must be an email address');
    expect(byField['credentialSubject.age']).toMatch(/^age must be an integer/);
    expect(byField['credentialSubject.dob']).toMatch(/^dob must be an RFC 3339 date-time/);
  });

  it('reports missing required attributes', () => {
    const result = validateSubject(body(), { id: DID, email: 'a@b.co' });
    expect(result).toEqual({
      ok: false,
      issues: [
        { field: 'credentialSubject.name', message: 'name is required' },
        { field: 'credentialSubject.surname', message: 'surname is required' },
        { field: 'credentialSubject.age', message: 'age is required' },
      ],
    });
  });

  it('anchors the alphabet pattern at both ends (the stored body keeps the reference text)', () => {
    expect(body().properties.surname?.pattern).toBe(ALPHABET_PATTERN);
    for (const surname of ['123abc', 'abc def', 'abc1', '', 'Łukasz']) {
      expect(validateSubject(body(), { ...subject(), surname }).ok).toBe(false);
    }
    expect(validateSubject(body(), { ...subject(), surname: 'OBrien' }).ok).toBe(true);
  });

  it('counts maxLength in code points', () => {
    expect(validateSubject(body(), { ...subject(), name: '😀'.repeat(20) }).ok).toBe(true);
    expect(validateSubject(body(), { ...subject(), name: '😀'.repeat(21) }).ok).toBe(false);
  });

  it.each([['0'], ['-12'], ['007'], [-5], ['9007199254740991']])('accepts the integer %j', (age) => {
    expect(validateSubject(body(), { ...subject(), age }).ok).toBe(true);
  });

  it.each([['1.5'], ['1e3'], [' 12'], ['12 '], ['+1'], [''], ['0x10'], [1.5], ['9007199254740992'], [true], [null]])(
    'rejects the integer %j',
    (age) => {
      expect(validateSubject(body(), { ...subject(), age })).toEqual({
        ok: false,
        issues: [expect.objectContaining({ field: 'credentialSubject.age' })],
      });
    },
  );

  it.each([['2000-02-29'], ['2000-01-31T23:59:59Z'], ['2000-01-31t23:59:59.123456z'], ['2000-01-31T23:59:59+05:30'], ['0050-06-01']])(
    'accepts the date %j',
    (dob) => {
      expect(validateSubject(body(), { ...subject(), dob }).ok).toBe(true);
    },
  );

  it.each([
    ['1900-02-29'],
    ['2001-04-31'],
    ['2000-13-01'],
    ['2000-1-1'],
    ['2000-01-31T23:59:59'],
    ['2000-01-31T24:00:00Z'],
    ['2016-12-31T23:59:60Z'],
    ['2000-01-31T10:00:00+24:00'],
    ['31/01/2000'],
    [946598400000],
  ])('rejects the date %j', (dob) => {
    expect(validateSubject(body(), { ...subject(), dob }).ok).toBe(false);
  });

  it('requires id to look like a DID, and can leave it optional', () => {
    const bad = validateSubject(body(), { ...subject(), id: 'not a did' });
    expect(bad).toEqual({ ok: false, issues: [expect.objectContaining({ field: 'credentialSubject.id' })] });
    const s = subject();
    delete s.id;
    expect(validateSubject(body(), s, { requireId: false }).ok).toBe(true);
  });

  it('rejects non-object subjects', () => {
    for (const s of [null, [], 'x', 3]) {
      expect(validateSubject(body(), s)).toEqual({
        ok: false,
        issues: [{ field: 'credentialSubject', message: 'credentialSubject must be a JSON object' }],
      });
    }
  });

  it('throws INVALID_INPUT for a malformed body', () => {
    expectAppError(() => validateSubject({ type: 'object' }, subject()), 'INVALID_INPUT');
  });
});

describe('SubjectValidator cache', () => {
  it('compiles once per canonical body and evicts beyond its size', () => {
    const v = new SubjectValidator({ cacheSize: 2 });
    const b = body();
    const reordered = JSON.parse(canonicalize(b)) as unknown;
    expect(v.validate(b, { id: DID, name: 'A', surname: 'B', age: 1 }).ok).toBe(true);
    expect(v.validate(reordered, { id: DID, name: 'A', surname: 'B', age: 1 }).ok).toBe(true);
    expect(v.cachedCount).toBe(1);
    for (const title of ['T1', 'T2', 'T3']) {
      expect(v.validate({ ...b, title }, { id: DID, name: 'A', surname: 'B', age: 1 }).ok).toBe(true);
    }
    expect(v.cachedCount).toBe(2);
  });
});

describe('value formats', () => {
  it('parses integers exactly', () => {
    expect(parseIntegerValue('-0')).toBe(0);
    expect(Object.is(parseIntegerValue('-0'), -0)).toBe(false);
    expect(parseIntegerValue('-9007199254740991')).toBe(-9007199254740991);
    expect(parseIntegerValue(1e300)).toBeUndefined();
  });

  it('parses dates to UTC instants', () => {
    expect(parseDateValue('2000-01-01')?.instant.toISOString()).toBe('2000-01-01T00:00:00.000Z');
    expect(parseDateValue('2000-01-01T00:30:00+01:00')?.instant.toISOString()).toBe('1999-12-31T23:30:00.000Z');
    expect(parseDateValue('0050-06-01')?.instant.getUTCFullYear()).toBe(50);
    expect(parseDateValue('2000-01-01')?.dateOnly).toBe(true);
  });

  it('uses the draft-04 URI', () => {
    expect(JSON_SCHEMA_DRAFT_04).toBe('http://json-schema.org/draft-04/schema#');
  });
});
