import { pairDependants } from '../../src/domain/schemas';

describe('pairDependants', () => {
  it('accepts exactly one credential per declared schema, in any order', () => {
    expect(pairDependants([], [])).toEqual([]);
    expect(pairDependants(['Address', 'Id:2'], ['Id:2', 'Address:7'])).toEqual([]);
  });

  it('pairs exact references first so a bare name does not consume them', () => {
    expect(pairDependants(['Id', 'Id:2'], ['Id:2', 'Id:1'])).toEqual([]);
    expect(pairDependants(['Id:2', 'Id'], ['Id:2', 'Id:5'])).toEqual([]);
  });

  it('reports a missing dependant, a wrong version and an undeclared one', () => {
    expect(pairDependants(['Address'], [])).toEqual([{ field: 'dependantVerifiableCredential', message: 'a credential of dependant schema Address is required' }]);
    expect(pairDependants(['Id:2'], ['Id:1']).map((i) => i.field)).toEqual(['dependantVerifiableCredential[0]', 'dependantVerifiableCredential']);
    expect(pairDependants([], ['Other:1']).map((i) => i.field)).toEqual(['dependantVerifiableCredential[0]']);
    expect(pairDependants(['Address'], ['Address:1', 'Address:2']).map((i) => i.field)).toEqual(['dependantVerifiableCredential[1]']);
  });
});
