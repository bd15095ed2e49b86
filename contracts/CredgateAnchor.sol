// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.37;

/// @title Credgate checkpoint anchor
/// @notice Stores the Merkle root of each anchored (log, size) of a Credgate transparency log and
/// emits `Anchored`. A root, once stored, can never change: anchoring a different root for the same
/// (log, size) reverts, so a forked log history is visible on chain. Anchoring the same root again
/// is a no-op without an event, which makes a relay's resubmission after a crash harmless.
contract CredgateAnchor {
    /// The only account allowed to anchor (the deployer): nobody else can pre-empt a (log, size).
    address public immutable owner;

    /// keccak256(logId) => tree size => root (SHA-256, RFC 9162).
    mapping(bytes32 => mapping(uint64 => bytes32)) private roots;

    event Anchored(bytes32 indexed logKey, uint64 indexed size, bytes32 root, string logId);

    error NotOwner();
    error EmptyRoot();
    error ConflictingRoot(bytes32 stored);

    constructor() {
        owner = msg.sender;
    }

    /// @return created false when this exact (logId, size, root) was already anchored.
    function anchor(string calldata logId, uint64 size, bytes32 root) external returns (bool created) {
        if (msg.sender != owner) revert NotOwner();
        if (root == bytes32(0)) revert EmptyRoot();
        bytes32 logKey = keccak256(bytes(logId));
        bytes32 stored = roots[logKey][size];
        if (stored == root) return false;
        if (stored != bytes32(0)) revert ConflictingRoot(stored);
        roots[logKey][size] = root;
        emit Anchored(logKey, size, root, logId);
        return true;
    }

    /// @return the anchored root of (logId, size), or zero when none was anchored.
    function rootOf(string calldata logId, uint64 size) external view returns (bytes32) {
        return roots[keccak256(bytes(logId))][size];
    }
}
