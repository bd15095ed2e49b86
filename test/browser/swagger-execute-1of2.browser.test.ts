import { swaggerExecuteShard } from './support/swagger-execute';

// Shard 1 of 2 of the Swagger UI "Try it out" test (test/browser/support/swagger-execute.ts).
swaggerExecuteShard(0, 2);
