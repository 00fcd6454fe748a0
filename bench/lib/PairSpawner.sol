// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;

interface IUniswapV2FactoryLike {
    function createPair(address tokenA, address tokenB) external returns (address pair);
}

/// Bench helper: creates many v2 pairs in one transaction, so a devnet gets tens of thousands of PairCreated logs fast.
contract PairSpawner {
    function spawn(address factory, address[] calldata a, address[] calldata b) external {
        for (uint256 i = 0; i < a.length; i++) IUniswapV2FactoryLike(factory).createPair(a[i], b[i]);
    }
}
