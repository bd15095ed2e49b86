import { type DocumentNode, type FragmentDefinitionNode, Kind, type OperationDefinitionNode, type SelectionSetNode } from 'graphql';
import { NESTED_FIELD_COST, rootFieldCost } from './field-costs';

/** What an operation would do, measured on the document before anything executes. */
export interface OperationMeasure {
  /** Deepest field nesting (a root field is depth 1). */
  readonly depth: number;
  /** Aliased fields, counted as often as fragments repeat them. */
  readonly aliases: number;
  readonly cost: number;
}

interface Partial {
  depth: number;
  aliases: number;
  cost: number;
}

const ZERO: Partial = { depth: 0, aliases: 0, cost: 0 };

function add(a: Partial, b: Partial): Partial {
  // Costs and aliases add up; numbers far past any limit are capped so they stay finite.
  return { depth: Math.max(a.depth, b.depth), aliases: Math.min(a.aliases + b.aliases, 1e12), cost: Math.min(a.cost + b.cost, 1e12) };
}

/**
 * Measures one operation of a validated document. Each fragment is measured once and reused
 * (validation already refused cycles), so a "fragment bomb" that doubles at every level costs
 * linear time to measure while its measured cost doubles like its response would.
 */
export function measureOperation(document: DocumentNode, operation: OperationDefinitionNode): OperationMeasure {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const rootType = operation.operation === 'query' ? 'Query' : operation.operation === 'mutation' ? 'Mutation' : 'Subscription';
  // Fragment results depend on whether they sit at the root (root field costs), so memo per level kind.
  const memo = new Map<string, Partial>();

  const selectionSet = (set: SelectionSetNode, atRoot: boolean): Partial => {
    let total = ZERO;
    for (const sel of set.selections) {
      if (sel.kind === Kind.FIELD) {
        const own: Partial = {
          depth: 1,
          aliases: sel.alias ? 1 : 0,
          cost: atRoot ? rootFieldCost(rootType, sel.name.value) : NESTED_FIELD_COST,
        };
        const inner = sel.selectionSet ? selectionSet(sel.selectionSet, false) : ZERO;
        total = add(total, { depth: own.depth + inner.depth, aliases: own.aliases + inner.aliases, cost: own.cost + inner.cost });
      } else if (sel.kind === Kind.INLINE_FRAGMENT) {
        total = add(total, selectionSet(sel.selectionSet, atRoot));
      } else {
        const key = `${atRoot ? 'root' : 'inner'}:${sel.name.value}`;
        let m = memo.get(key);
        if (!m) {
          const frag = fragments.get(sel.name.value);
          // Reserve the slot first: a cycle (refused by validation anyway) then measures as empty.
          memo.set(key, ZERO);
          m = frag ? selectionSet(frag.selectionSet, atRoot) : ZERO;
          memo.set(key, m);
        }
        total = add(total, m);
      }
    }
    return total;
  };

  return selectionSet(operation.selectionSet, true);
}
