-- Per-DID Hedera entities: where a DID's ledgerFileId / topicId / templateTopicId were created
-- ('hedera:<network>'), or NULL when the service numbered them itself. The anchor adapter only
-- publishes to a DID's own topic (or writes its file) when the DID says the entity is on its network.
ALTER TABLE "dids" ADD COLUMN "ledger_network" TEXT;
