import { defineConfig } from 'prisma/config';

// Only `prisma generate` runs here (offline). Migrations are applied by src/db/migrator.ts;
// `prisma migrate deploy` elsewhere reads the same folder and agrees via _prisma_migrations.
export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: { url: process.env.DATABASE_URL ?? 'postgresql://localhost:5432/credgate' },
});
