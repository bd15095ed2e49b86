/** The core's one source is the SDK's (src/sdk/zk-core-source.ts): the service and a non-custodial holder run the same code. */
export { ZK_CORE_SOURCE, type ZkCore, type ZkMessage, type ZkPseudonym, type ZkRange, zkCoreOf } from '../sdk/zk-core-source';
