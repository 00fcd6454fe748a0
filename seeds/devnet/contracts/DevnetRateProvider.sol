// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @title DevnetRateProvider
/// @notice A Balancer v2 rate provider (IRateProvider: getRate() returns an 18-decimal fixed-point rate) for the
/// devnet's composable stable pool: its owner sets the rate, as a yield-bearing wrapper's rate grows over time.
contract DevnetRateProvider {
    address public immutable owner;
    uint256 private rate;

    event RateSet(uint256 rate);

    constructor(uint256 initialRate) {
        owner = msg.sender;
        rate = initialRate;
        emit RateSet(initialRate);
    }

    function getRate() external view returns (uint256) {
        return rate;
    }

    function setRate(uint256 newRate) external {
        require(msg.sender == owner, "DevnetRateProvider: not owner");
        rate = newRate;
        emit RateSet(newRate);
    }
}
