-- Status lists: random slot allocation (private allocation map) and the signed public document
-- cached per list version (signed once per change of the bits, not on every request).

-- AlterTable
ALTER TABLE "status_lists" ADD COLUMN "allocated" BYTEA;
ALTER TABLE "status_lists" ADD COLUMN "signed_document" JSONB;
ALTER TABLE "status_lists" ADD COLUMN "signed_version" INTEGER;

-- Backfill: mark every slot a credential already holds (bit i = most significant bit first, as in `bits`).
UPDATE "status_lists" s SET "allocated" = (
  SELECT decode(string_agg(lpad(to_hex(coalesce(m.b, 0)), 2, '0'), '' ORDER BY g.n), 'hex')
  FROM generate_series(0, length(s."bits") - 1) AS g(n)
  LEFT JOIN (
    SELECT c."status_index" / 8 AS n, bit_or(128 >> (c."status_index" % 8)) AS b
    FROM "credentials" c
    WHERE c."status_list_id" = s."id"
    GROUP BY 1
  ) m ON m.n = g.n
);

ALTER TABLE "status_lists" ALTER COLUMN "allocated" SET NOT NULL;
