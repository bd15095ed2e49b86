import { invalidInput, type FieldIssue } from '../../errors';
import { mdocDoctype, type MdocDoctypeConfig, type MdocElementConfig } from './doctypes';
import { ElementTypeError, setOwn, toElementValue, toUntypedElementValue } from './element-values';

/** Where an attribute goes when its name is not the element's identifier or one of its aliases. */
export type MdocAttributeMapping = Record<string, { namespace: string; element: string }>;

/** Namespaces with values already typed for CBOR (DateOnly, Date, Uint8Array, Map…). */
export type MdocNamespaceValues = Record<string, Record<string, unknown>>;

function findElement(config: MdocDoctypeConfig, attribute: string): { namespace: string; element: string } | undefined {
  for (const [namespace, elements] of Object.entries(config.namespaces)) {
    if (Object.hasOwn(elements, attribute)) return { namespace, element: attribute };
  }
  for (const [namespace, elements] of Object.entries(config.namespaces)) {
    for (const [element, spec] of Object.entries(elements)) {
      if (spec.aliases?.includes(attribute)) return { namespace, element };
    }
  }
  return undefined;
}

function elementConfig(config: MdocDoctypeConfig | undefined, namespace: string, element: string): MdocElementConfig | undefined {
  const elements = config && Object.hasOwn(config.namespaces, namespace) ? config.namespaces[namespace] : undefined;
  return elements && Object.hasOwn(elements, element) ? elements[element] : undefined;
}

/**
 * Where an attribute lands in a doctype: the DCQL / OID4VCI claims path [namespace, element] an
 * mso_mdoc credential configuration advertises for it. Undefined when the doctype has no
 * configuration or no element for the attribute (mdocNamespacesFromAttributes would refuse it).
 */
export function mdocClaimPath(docType: string, attribute: string, mapping: MdocAttributeMapping = {}): [string, string] | undefined {
  const config = mdocDoctype(docType);
  if (!config) return undefined;
  const target = Object.hasOwn(mapping, attribute) ? mapping[attribute] : findElement(config, attribute);
  return target ? [target.namespace, target.element] : undefined;
}

/**
 * Maps a template's (or schema version's) attributes onto the doctype's namespace elements, typing
 * each value per the doctype, and refuses — with one detail per field — unknown attributes, values
 * of the wrong type and missing mandatory elements. This is how an mso_mdoc credential configuration
 * is derived from a Family B template or a Family A schema.
 */
export function mdocNamespacesFromAttributes(
  docType: string,
  attributes: Record<string, unknown>,
  mapping: MdocAttributeMapping = {},
): MdocNamespaceValues {
  const config = mdocDoctype(docType);
  if (!config) throw invalidInput(`no mdoc doctype configuration for ${docType}`);
  const issues: FieldIssue[] = [];
  const out: MdocNamespaceValues = {};
  // Elements an attribute was given for, even when its value was refused: no second "mandatory" issue for them.
  const given = new Set<string>();
  for (const [attribute, value] of Object.entries(attributes)) {
    if (value === undefined || value === null) continue;
    const target = Object.hasOwn(mapping, attribute) ? mapping[attribute] : findElement(config, attribute);
    if (!target) {
      issues.push({ field: attribute, message: `is not an element of ${docType}` });
      continue;
    }
    const spec = elementConfig(config, target.namespace, target.element);
    given.add(`${target.namespace}\u0000${target.element}`);
    try {
      const typed = spec ? toElementValue(spec.type, value, attribute) : toUntypedElementValue(value, attribute);
      if (!Object.hasOwn(out, target.namespace)) setOwn(out, target.namespace, {});
      const ns = out[target.namespace] as Record<string, unknown>;
      if (Object.hasOwn(ns, target.element)) issues.push({ field: attribute, message: `maps onto ${target.element}, which another attribute already set` });
      else setOwn(ns, target.element, typed);
    } catch (e) {
      if (!(e instanceof ElementTypeError)) throw e;
      issues.push({ field: e.field, message: e.message });
    }
  }
  for (const [namespace, elements] of Object.entries(config.namespaces)) {
    for (const [element, spec] of Object.entries(elements)) {
      if (spec.required && !given.has(`${namespace}\u0000${element}`)) {
        issues.push({ field: element, message: `is mandatory in ${docType}` });
      }
    }
  }
  if (issues.length > 0) throw invalidInput(`attributes do not fit the ${docType} doctype`, issues);
  return out;
}

/**
 * Types the namespaces handed to issueMdoc: elements of a configured namespace must be known and of
 * their type (a typo is refused instead of issued); other namespaces (domestic extensions) carry
 * JSON-like values as they are.
 */
export function typeNamespaceValues(docType: string, namespaces: Record<string, Record<string, unknown>>): MdocNamespaceValues {
  const config = mdocDoctype(docType);
  const issues: FieldIssue[] = [];
  const out: MdocNamespaceValues = {};
  for (const [namespace, elements] of Object.entries(namespaces)) {
    if (typeof elements !== 'object' || elements === null || Array.isArray(elements)) {
      issues.push({ field: namespace, message: 'must map element identifiers to values' });
      continue;
    }
    const configured = config !== undefined && Object.hasOwn(config.namespaces, namespace);
    const typed: Record<string, unknown> = {};
    for (const [element, value] of Object.entries(elements)) {
      const field = `${namespace}.${element}`;
      const spec = elementConfig(config, namespace, element);
      if (configured && !spec) {
        issues.push({ field, message: `is not an element of ${namespace}` });
        continue;
      }
      try {
        setOwn(typed, element, spec ? toElementValue(spec.type, value, field) : toUntypedElementValue(value, field));
      } catch (e) {
        if (!(e instanceof ElementTypeError)) throw e;
        issues.push({ field: e.field, message: e.message });
      }
    }
    if (Object.keys(typed).length > 0) setOwn(out, namespace, typed);
  }
  if (issues.length > 0) throw invalidInput('mdoc element values are invalid', issues);
  if (Object.keys(out).length === 0) throw invalidInput('an mdoc needs at least one data element');
  return out;
}
