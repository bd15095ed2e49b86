-- Status lists' 16 KiB maps are stored uncompressed (issue 19). Every Family B tick rewrites its
-- list's `allocated` map with a few more bits set. Randomly placed bits compress badly, and pglz
-- spent about 2.5 ms of the tick's 5.5 ms write statement compressing 16 KiB (measured with
-- auto_explain under the bench: the UPDATE of status_lists took 3.5 ms, the credentials insert
-- 0.6 ms); stored EXTERNAL the same UPDATE takes about 0.6 ms. A map then costs 16 KiB of TOAST
-- instead of about 6 KiB, and a read of one bit (substring) fetches only the chunk that holds it.
-- Existing values keep their compressed form until they are next written.
ALTER TABLE "status_lists" ALTER COLUMN "allocated" SET STORAGE EXTERNAL;
ALTER TABLE "status_lists" ALTER COLUMN "bits" SET STORAGE EXTERNAL;
ALTER TABLE "vc_status_lists" ALTER COLUMN "allocated" SET STORAGE EXTERNAL;
ALTER TABLE "vc_status_lists" ALTER COLUMN "bits" SET STORAGE EXTERNAL;
ALTER TABLE "token_status_lists" ALTER COLUMN "allocated" SET STORAGE EXTERNAL;
ALTER TABLE "token_status_lists" ALTER COLUMN "bits" SET STORAGE EXTERNAL;
