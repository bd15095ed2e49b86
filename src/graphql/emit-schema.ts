import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { printGraphqlSchema } from './build-schema';

/** Writes schema.graphql at the project root (run by `npm run build`). */
const target = path.resolve(__dirname, '../../schema.graphql');
writeFileSync(target, printGraphqlSchema());
