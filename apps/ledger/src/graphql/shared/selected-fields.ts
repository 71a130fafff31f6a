import { type FieldNode, type GraphQLResolveInfo, Kind, type SelectionSetNode } from 'graphql';

/**
 * The fields a query selects on a connection's nodes (`edges { node { … } }`),
 * so a resolver can read only their columns; undefined when a fragment
 * selects at any of those levels, where reading every column is the safe answer.
 */
export function selectedNodeFields(info: GraphQLResolveInfo): string[] | undefined {
  const edges = childFields(info.fieldNodes, 'edges');
  const nodes = edges && childFields(edges, 'node');
  const fields = nodes && childFields(nodes);
  return fields && [...new Set(fields.map((field) => field.name.value))];
}

/** The fields selected under `parents` (those named `name` only, when given); undefined when a fragment is among them. */
function childFields(parents: readonly FieldNode[], name?: string): FieldNode[] | undefined {
  const children: FieldNode[] = [];
  for (const selection of parents.flatMap((parent) => (parent.selectionSet as SelectionSetNode | undefined)?.selections ?? [])) {
    if (selection.kind !== Kind.FIELD) return undefined;
    if (name === undefined || selection.name.value === name) children.push(selection);
  }
  return children;
}
