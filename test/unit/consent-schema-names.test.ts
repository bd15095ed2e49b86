import { consentSchemaNames } from '../../src/services/family-a/credentials.service';

/** The consent bindings an issue tries: always the same three (the accepted set), likeliest first. */
describe('consentSchemaNames', () => {
  const schema = { name: 'EmployeeBadge', version: 3 };
  const accepted = ['EmployeeBadge', 'EmployeeBadge:3', null];
  const asSet = (names: (string | null)[]): Set<string | null> => new Set(names);

  it('tries the spelling of the issue request first, then the unbound consent, then the other spelling', () => {
    expect(consentSchemaNames(schema, 'EmployeeBadge:3')).toEqual(['EmployeeBadge:3', null, 'EmployeeBadge']);
    expect(consentSchemaNames(schema, 'EmployeeBadge')).toEqual(['EmployeeBadge', null, 'EmployeeBadge:3']);
  });

  it('accepts exactly name, name:version and no schema, whatever the request spells', () => {
    for (const requested of ['EmployeeBadge:3', 'EmployeeBadge', 'employeebadge', 'EmployeeBadge:03', '']) {
      const names = consentSchemaNames(schema, requested);
      expect(names).toHaveLength(3);
      expect(asSet(names)).toEqual(asSet(accepted));
    }
  });
});
