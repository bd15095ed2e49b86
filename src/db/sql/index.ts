import * as familyA from './family-a.sql';
import * as familyB from './family-b.sql';
import * as familyBIssue from './family-b-issue.sql';
import * as keys from './keys.sql';
import * as ledger from './ledger.sql';
import * as vcApi from './vc-api.sql';
import type { Statement } from './statement';

export { type ColumnType, type Statement, hex, run, statement } from './statement';

const isStatement = (v: unknown): v is Statement<readonly unknown[], unknown> =>
  typeof v === 'object' && v !== null && 'name' in v && 'text' in v && 'uses' in v;

/**
 * Every hand-written statement of the hot paths. The drift test walks this list: a statement
 * added to one of these modules is checked against prisma/schema.prisma and PREPAREd without
 * being registered anywhere else.
 */
export const ALL_STATEMENTS: readonly Statement<readonly unknown[], unknown>[] = [...Object.values(familyA), ...Object.values(familyB), ...Object.values(familyBIssue), ...Object.values(keys), ...Object.values(ledger), ...Object.values(vcApi)].flatMap((v: unknown) => (isStatement(v) ? [v] : []));
