import { Prisma } from '../generated/prisma/client';

/** True for a unique-constraint violation (P2002), the one Prisma error services branch on. */
export function isUniqueViolation(e: unknown): boolean {
  return e instanceof Prisma.PrismaClientKnownRequestError && e.code === 'P2002';
}
