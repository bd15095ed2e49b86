import { formats } from '../../../src/formats';
import { FIXTURES } from './fixtures';

/**
 * Every registered format, through the registry alone: issue → detected as itself → verified;
 * a tampered copy → not verified. Nothing here names a format's module.
 */
describe('every registered format round-trips through the registry', () => {
  it('has a fixture for each registered format (a format is not registered without its tests)', () => {
    expect(Object.keys(FIXTURES).sort()).toEqual(formats.list().map((f) => f.id).sort());
  });

  describe.each(formats.list().map((f) => [f.id] as const))('%s', (id) => {
    const format = formats.require(id);
    const fixture = FIXTURES[id]!;

    it('issues a credential the registry detects as this format, which verifies', async () => {
      const { issued, context } = await fixture.issue(format);
      expect(formats.detect(issued)?.id).toBe(id);
      const r = await format.verify(issued, context);
      expect(r.problems).toEqual([]);
      expect(r.verified).toBe(true);
    });

    it('refuses a tampered copy, still detected as this format', async () => {
      const { issued, context } = await fixture.issue(format);
      const tampered = fixture.tamper(issued);
      expect(formats.detect(tampered)?.id).toBe(id);
      const r = await format.verify(tampered, context);
      expect(r.verified).toBe(false);
      expect(r.problems.map((p) => p.type)).toContain(fixture.tamperedProblem);
    });
  });
});
