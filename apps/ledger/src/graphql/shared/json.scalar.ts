import { GraphQLScalarType, Kind, type ValueNode } from 'graphql';

/**
 * Free-form JSON, for the ledger's open maps (board info, capacities, job
 * parameters and evidence, profile groups): their keys are the hardware's
 * and the drivers', not the schema's.
 */
export const JsonScalar = new GraphQLScalarType({
  name: 'JSON',
  description: 'Any JSON value (objects whose keys come from the hardware or the drivers).',
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: literalValue,
});

function literalValue(node: ValueNode): unknown {
  switch (node.kind) {
    case Kind.STRING:
    case Kind.BOOLEAN:
      return node.value;
    case Kind.INT:
    case Kind.FLOAT:
      return Number(node.value);
    case Kind.LIST:
      return node.values.map(literalValue);
    case Kind.OBJECT:
      return Object.fromEntries(node.fields.map((field) => [field.name.value, literalValue(field.value)]));
    default:
      return null;
  }
}
