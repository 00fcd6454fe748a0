// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @title TransferFeeProbe
/// @notice Never deployed: the seeding run places this code, through an eth_call state override, at a pool that
/// holds `token` (the holder) and at a spare address (the receiver), and calls `probe` on the holder. The token then
/// sees exactly a pool paying out (a buy) and a pool being paid (a sell), so a token that taxes transfers from or
/// to its pools shows the fee it would take from a swap.
contract TransferFeeProbe {
    /// @return received What the receiver got when the holder sent `amount` (a buy).
    /// @return returned What the holder got back when the receiver sent `received` back (a sell).
    function probe(address token, address receiver, uint256 amount) external returns (uint256 received, uint256 returned) {
        uint256 before = _balanceOf(token, receiver);
        _transfer(token, receiver, amount);
        received = _balanceOf(token, receiver) - before;
        returned = TransferFeeProbe(receiver).sendBack(token, address(this), received);
    }

    /// @return arrived What `to` got when this address sent it `amount`.
    function sendBack(address token, address to, uint256 amount) external returns (uint256 arrived) {
        uint256 before = _balanceOf(token, to);
        _transfer(token, to, amount);
        arrived = _balanceOf(token, to) - before;
    }

    function _balanceOf(address token, address account) private view returns (uint256) {
        (bool ok, bytes memory data) = token.staticcall(abi.encodeWithSelector(0x70a08231, account));
        require(ok && data.length >= 32, "balanceOf failed");
        return abi.decode(data, (uint256));
    }

    /// Tolerates tokens whose transfer returns nothing (USDT on Ethereum).
    function _transfer(address token, address to, uint256 amount) private {
        (bool ok, bytes memory data) = token.call(abi.encodeWithSelector(0xa9059cbb, to, amount));
        require(ok && (data.length == 0 || abi.decode(data, (bool))), "transfer failed");
    }
}
