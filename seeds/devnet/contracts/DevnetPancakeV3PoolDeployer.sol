// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @title PancakeV3PoolCode
/// @notice Holds PancakeSwap v3's pool creation code (the npm artifact, unchanged) as its runtime code, so that the
/// deployer below can copy it with EXTCODECOPY: the creation code is too large for the deployer's own code.
/// It is data, never called.
contract PancakeV3PoolCode {
    constructor(bytes memory creationCode) {
        assembly {
            return(add(creationCode, 0x20), mload(creationCode))
        }
    }
}

/// @title DevnetPancakeV3PoolDeployer
/// @notice The devnet's stand-in for PancakeSwap's PancakeV3PoolDeployer (whose source and artifact no npm package
/// ships), with its interface (IPancakeV3PoolDeployer of the v3-core package) and behaviour: the factory set once,
/// only the factory may deploy, the pool's parameters set for the pool's constructor to read back from msg.sender
/// (PancakeV3Pool's constructor calls parameters()), the pool created with CREATE2 from this contract, salt
/// keccak256(abi.encode(token0, token1, fee)), then the parameters cleared. With the unchanged pool creation code, pool
/// addresses are CREATE2(this, salt, 0x6ce8eb47…f7e2), as PancakeSwap's periphery computes them.
contract DevnetPancakeV3PoolDeployer {
    struct Parameters {
        address factory;
        address token0;
        address token1;
        uint24 fee;
        int24 tickSpacing;
    }

    /// @notice The pool being deployed (zero outside deploy).
    Parameters public parameters;

    /// @notice The only caller of deploy (PancakeV3Factory), set once.
    address public factoryAddress;

    /// @notice The contract whose runtime code is the pool's creation code (PancakeV3PoolCode).
    address public immutable poolCode;

    event SetFactoryAddress(address indexed factory);

    constructor(address poolCode_) {
        poolCode = poolCode_;
    }

    function setFactoryAddress(address factoryAddress_) external {
        require(factoryAddress == address(0), "already initialized");
        factoryAddress = factoryAddress_;
        emit SetFactoryAddress(factoryAddress_);
    }

    function deploy(address factory, address token0, address token1, uint24 fee, int24 tickSpacing) external returns (address pool) {
        require(msg.sender == factoryAddress, "only factory can call deploy");
        parameters = Parameters({factory: factory, token0: token0, token1: token1, fee: fee, tickSpacing: tickSpacing});
        bytes32 salt = keccak256(abi.encode(token0, token1, fee));
        address code = poolCode;
        assembly {
            let size := extcodesize(code)
            let ptr := mload(0x40)
            extcodecopy(code, ptr, 0, size)
            pool := create2(0, ptr, size, salt)
        }
        require(pool != address(0), "pool creation failed");
        delete parameters;
    }
}
