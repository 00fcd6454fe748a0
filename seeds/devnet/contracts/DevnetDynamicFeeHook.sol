// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// v4-core's PoolKey (currencies and hooks as plain addresses: the same ABI encoding).
struct PoolKey {
    address currency0;
    address currency1;
    uint24 fee;
    int24 tickSpacing;
    address hooks;
}

interface IPoolManagerFees {
    function updateDynamicLPFee(PoolKey memory key, uint24 newDynamicLPFee) external;
}

/// @title DevnetDynamicFeeHook
/// @notice A Uniswap v4 hook without any permission (the low 14 bits of its address are zero, so the PoolManager
/// never calls it) on a dynamic-fee pool: its owner sets the pool's LP fee through PoolManager.updateDynamicLPFee,
/// which emits no event. Its runtime code is placed with anvil_setCode, so `init` (once) names the owner and the
/// PoolManager instead of a constructor.
contract DevnetDynamicFeeHook {
    address public owner;
    address public manager;

    function init(address poolManager) external {
        require(owner == address(0), "DevnetDynamicFeeHook: initialized");
        owner = msg.sender;
        manager = poolManager;
    }

    function setFee(PoolKey calldata key, uint24 fee) external {
        require(msg.sender == owner, "DevnetDynamicFeeHook: not owner");
        IPoolManagerFees(manager).updateDynamicLPFee(key, fee);
    }
}
