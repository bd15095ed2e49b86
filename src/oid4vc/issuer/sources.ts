import type { SchemaRecord, TemplateRecord } from '../../domain/ports';
import type { CredentialSource, CredentialSources } from './configurations';

/** The repository reads the sources need (src/db implements both). */
export interface SourceReads {
  listTemplates(tenantId: string, page: { first: number; after?: string }): Promise<{ items: TemplateRecord[]; hasMore: boolean }>;
  listSchemas(tenantId: string): Promise<SchemaRecord[]>;
}

/** Offerable credentials per tenant: bounded, so a tenant with thousands of templates still answers metadata quickly. */
const MAX_SOURCES = 500;

/** Attribute names of a Family A schema body: the JSON Schema's `properties` (schema-body.ts). */
function schemaAttributes(body: Record<string, unknown>): string[] {
  const properties = body['properties'];
  return typeof properties === 'object' && properties !== null && !Array.isArray(properties) ? Object.keys(properties) : [];
}

/** Every live Family B template and every Family A schema version of the tenant. */
export function credentialSources(reads: SourceReads): CredentialSources {
  return {
    async list(tenantId) {
      const templates = await reads.listTemplates(tenantId, { first: MAX_SOURCES });
      const schemas = await reads.listSchemas(tenantId);
      const out: CredentialSource[] = templates.items
        .filter((t) => t.deletedAt === null)
        .map((t) => ({ kind: 'template', templateId: t.templateId, name: t.name, attributes: t.attributes.map((a) => a.attributeName) }));
      for (const s of schemas.slice(0, MAX_SOURCES)) out.push({ kind: 'schema', name: s.name, version: s.version, attributes: schemaAttributes(s.body) });
      return out;
    },
  };
}
