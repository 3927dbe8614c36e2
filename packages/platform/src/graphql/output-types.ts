import {
  GraphQLBoolean,
  type GraphQLFieldConfigMap,
  GraphQLFloat,
  GraphQLList,
  GraphQLObjectType,
  type GraphQLOutputType,
  GraphQLScalarType,
  GraphQLString,
  Kind,
  type ValueNode,
} from 'graphql';

/**
 * The GraphQL types of the REST answers, made from their TypeBox response schemas (each domain's
 * responses.ts), so an answer's shape is declared once for both APIs: a field GraphQL offers is a field
 * the REST answer names, with the same value. What a schema cannot say in GraphQL's types (a record
 * keyed by data, a union of shapes, a value of any type) is the `JSON` scalar, as the REST answer
 * writes it.
 */

type Schema = Record<string, any>;

/** Any JSON value: the open parts of an answer, and the structured inputs (a REST body's own shape). */
export const JsonScalar = new GraphQLScalarType({
  name: 'JSON',
  description: 'Any JSON value, as the REST call of the same operation takes or answers it.',
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: literalValue,
});

function literalValue(node: ValueNode, variables?: Record<string, unknown> | null): unknown {
  switch (node.kind) {
    case Kind.STRING:
    case Kind.BOOLEAN:
    case Kind.ENUM:
      return node.value;
    case Kind.INT:
    case Kind.FLOAT:
      return Number(node.value);
    case Kind.NULL:
      return null;
    case Kind.LIST:
      return node.values.map((value) => literalValue(value, variables));
    case Kind.OBJECT:
      return Object.fromEntries(
        node.fields.map((field) => [field.name.value, literalValue(field.value, variables)]),
      );
    case Kind.VARIABLE:
      return variables?.[node.name.value];
  }
}

const NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;
const pascal = (key: string) => key.charAt(0).toUpperCase() + key.slice(1);

/**
 * Turns response schemas into GraphQL output types: one object type per object schema (named from
 * where it is first met, `Product`, `ProductPriceData`), shared wherever the same schema recurs.
 */
export class OutputTypes {
  private readonly made = new WeakMap<object, GraphQLOutputType>();
  private readonly names = new Set<string>();

  /** The output type of `schema`, its object types named from `name`. */
  of(schema: Schema, name: string): GraphQLOutputType {
    const known = this.made.get(schema);
    if (known) return known;
    const type = this.convert(schema, name);
    this.made.set(schema, type);
    return type;
  }

  private convert(schema: Schema, name: string): GraphQLOutputType {
    if (Array.isArray(schema.anyOf)) {
      const present = (schema.anyOf as Schema[]).filter((branch) => branch.type !== 'null');
      if (present.length === 1) return this.of(present[0]!, name);
      return present.every((branch) => branch.type === 'string') ? GraphQLString : JsonScalar;
    }
    if (Array.isArray(schema.enum)) {
      return schema.enum.every((value: unknown) => typeof value === 'string') ? GraphQLString : JsonScalar;
    }
    const types = [schema.type].flat().filter((type) => type !== 'null' && type !== undefined);
    if (types.length !== 1) return JsonScalar;
    switch (types[0]) {
      case 'string':
        return GraphQLString;
      // GraphQL's Int is 32 bits: counts and amounts of the wire are numbers of any size
      case 'number':
      case 'integer':
        return GraphQLFloat;
      case 'boolean':
        return GraphQLBoolean;
      case 'array':
        return schema.items ? new GraphQLList(this.of(schema.items, name)) : new GraphQLList(JsonScalar);
      case 'object':
        return this.object(schema, name);
      default:
        return JsonScalar;
    }
  }

  private object(schema: Schema, name: string): GraphQLOutputType {
    const entries = Object.entries((schema.properties ?? {}) as Record<string, Schema>).filter(
      ([key]) => NAME.test(key) && !key.startsWith('__'),
    );
    // a record keyed by data (choices per option name), or an object with nothing named: JSON
    if (entries.length === 0) return JsonScalar;
    const typeName = this.uniqueName(name);
    return new GraphQLObjectType({
      name: typeName,
      ...(schema.description ? { description: schema.description } : {}),
      fields: () => {
        const fields: GraphQLFieldConfigMap<unknown, unknown> = {};
        for (const [key, property] of entries) {
          fields[key] = { type: this.of(property, `${typeName}${pascal(key)}`) };
        }
        return fields;
      },
    });
  }

  private uniqueName(name: string): string {
    let candidate = name;
    for (let n = 2; this.names.has(candidate); n++) candidate = `${name}${n}`;
    this.names.add(candidate);
    return candidate;
  }
}
